/** What the ordering endpoints of the Clinical Portal answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { PARENT_TEST_TYPES, TEST_NAMES } from '../catalogue/tests';

/** GET physicians: the account's physicians. */
export const PhysicianOption = s.object({
  id: s.integer,
  firstName: s.string,
  lastName: s.string,
  name: s.string,
  npi: s.nullable(s.string),
  specialty: s.nullable(s.string),
  /** This physician is the signed-in user (their physician record): the order form pre-selects them. */
  isCaller: s.boolean,
});
export type PhysicianOption = s.Infer<typeof PhysicianOption>;

/** GET tests/catalogue: a test the Clinical Portal may order. */
export const CatalogueOption = s.object({
  name: s.oneOf(TEST_NAMES),
  parentType: s.nullable(s.oneOf(PARENT_TEST_TYPES)),
  research: s.boolean,
});
export type CatalogueOption = s.Infer<typeof CatalogueOption>;

/** What placing an order answers of the order and its sample (the clinic's and the research portal's). */
export const PlacedOrder = s.object({ id: s.integer, orderNumber: s.string, createdAt: s.string, origin: s.string, portal: s.string });
export const PlacedSample = s.object({ id: s.integer, barcode: s.string, status: s.string, sampleType: s.string });
export const RequisitionFormJob = s.object({ url: s.string, jobId: s.integer });

/** POST order: the order placed, its sample (a new kit) and the requisition form being rendered. */
export const CreatedOrder = s.object({
  order: PlacedOrder,
  sample: PlacedSample,
  tests: s.array(s.object({ id: s.integer, name: s.string })),
  patientId: s.integer,
  physicianId: s.integer,
  requisitionForm: RequisitionFormJob,
});
export type CreatedOrder = s.Infer<typeof CreatedOrder>;

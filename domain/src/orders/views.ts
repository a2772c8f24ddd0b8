/** What the ordering endpoints of the Clinical Portal answer, as JSON. Types only. */
import type { ParentTestType, TestName } from '../catalogue/tests';

/** GET physicians: the account's physicians. */
export interface PhysicianOption {
  id: number;
  firstName: string;
  lastName: string;
  name: string;
  npi: string | null;
  specialty: string | null;
  /** This physician is the signed-in user (their physician record): the order form pre-selects them. */
  isCaller: boolean;
}

/** GET tests/catalogue: a test the Clinical Portal may order. */
export interface CatalogueOption {
  name: TestName;
  parentType: ParentTestType | null;
  research: boolean;
}

/** POST order: the order placed, its sample (a new kit) and the requisition form being rendered. */
export interface CreatedOrder {
  order: { id: number; orderNumber: string; createdAt: string; origin: string; portal: string };
  sample: { id: number; barcode: string; status: string; sampleType: string };
  tests: { id: number; name: string }[];
  patientId: number;
  physicianId: number;
  requisitionForm: { url: string; jobId: number };
}

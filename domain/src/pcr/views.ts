/** What the PCR endpoints of the Lab Toolbox answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { PCR_CONTROL_KINDS } from './plates';

const Person = s.object({ id: s.integer, name: s.string });

/** GET pcr/queue: a sample of a plate test (COVID-19 PCR or Rapid) In Queue, waiting for a plate. */
export const QueuedSample = s.object({
  sampleId: s.integer,
  barcode: s.string,
  sampleType: s.nullable(s.string),
  /** Its plate test (COVID-19 PCR, COVID-19 Rapid). */
  test: s.nullable(s.string),
  receivedAt: s.nullable(s.string),
  collectedAt: s.nullable(s.string),
  /** First name and last initial only ('' when the sample has no patient). */
  patient: s.string,
});
export type QueuedSample = s.Infer<typeof QueuedSample>;

/** GET pcr/plates: one plate of the list. */
export const PlateSummary = s.object({
  id: s.integer,
  name: s.string,
  status: s.string,
  createdBy: Person,
  createdAt: s.string,
  resultedAt: s.nullable(s.string),
  sampleCount: s.integer,
  controlCount: s.integer,
});
export type PlateSummary = s.Infer<typeof PlateSummary>;

/** One well of a plate: a sample, a re-extraction or a control, and its result once entered. */
export const PlateWellView = s.object({
  well: s.string,
  label: s.string,
  kind: s.union(s.literal('sample'), s.oneOf(PCR_CONTROL_KINDS)),
  reextraction: s.boolean,
  sampleId: s.nullable(s.integer),
  barcode: s.nullable(s.string),
  patient: s.nullable(s.string),
  /** The plate test its sample is for (COVID-19 PCR, COVID-19 Rapid); null for a control. */
  test: s.nullable(s.string),
  result: s.nullable(s.string),
  resultId: s.nullable(s.integer),
  resultStatus: s.nullable(s.string),
});
export type PlateWellView = s.Infer<typeof PlateWellView>;

/** GET pcr/plates/{plateId}, and the answer to registering a plate or entering its results: the list's fields but controlCount, and more. */
export const PlateView = s.extend(s.omit(PlateSummary, ['controlCount']), {
  resultedBy: s.nullable(Person),
  /** Only once resulted: whether the controls passed, and what failed. */
  controls: s.nullable(s.object({ passed: s.boolean, problems: s.array(s.string) })),
  wells: s.array(PlateWellView),
});
export type PlateView = s.Infer<typeof PlateView>;

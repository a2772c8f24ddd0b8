/** What the PCR endpoints of the Lab Toolbox answer, as JSON. Types only. */
import type { PcrControlKind } from './plates';

/** GET pcr/queue: a sample of a plate test (COVID-19 PCR or Rapid) In Queue, waiting for a plate. */
export interface QueuedSample {
  sampleId: number;
  barcode: string;
  sampleType: string | null;
  /** Its plate test (COVID-19 PCR, COVID-19 Rapid). */
  test: string | null;
  receivedAt: string | null;
  collectedAt: string | null;
  /** First name and last initial only ('' when the sample has no patient). */
  patient: string;
}

/** GET pcr/plates: one plate of the list. */
export interface PlateSummary {
  id: number;
  name: string;
  status: string;
  createdBy: { id: number; name: string };
  createdAt: string;
  resultedAt: string | null;
  sampleCount: number;
  controlCount: number;
}

/** One well of a plate: a sample, a re-extraction or a control, and its result once entered. */
export interface PlateWellView {
  well: string;
  label: string;
  kind: 'sample' | PcrControlKind;
  reextraction: boolean;
  sampleId: number | null;
  barcode: string | null;
  patient: string | null;
  /** The plate test its sample is for (COVID-19 PCR, COVID-19 Rapid); null for a control. */
  test: string | null;
  result: string | null;
  resultId: number | null;
  resultStatus: string | null;
}

/** GET pcr/plates/{plateId}, and the answer to registering a plate or entering its results: the list's fields but controlCount, and more. */
export interface PlateView extends Omit<PlateSummary, 'controlCount'> {
  resultedBy: { id: number; name: string } | null;
  /** Only once resulted: whether the controls passed, and what failed. */
  controls: { passed: boolean; problems: string[] } | null;
  wells: PlateWellView[];
}

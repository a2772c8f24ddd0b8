/**
 * A patient's cancer diagnosis, registered by the clinic for a sample (SPEC §7
 * sample/patient-register-cancer), and the PROSTOX CFRT test a clinic adds to a sample it already
 * collected (sample/{id}/add-cfrt-test). The values and rules, once (request schemas:
 * cancer-diagnosis-schemas.ts, apart so the SPA's bundle has no joi).
 */
import { RADIATION_TREATMENTS, type RadiationTreatment } from '../patients/patients';
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { SampleStatus } from './statuses';

/** Where the cancer is (the tests' cancers; anything else is Other, with its name). */
export const CancerSite = {
  Prostate: 'Prostate',
  HeadAndNeck: 'Head and neck',
  Breast: 'Breast',
  Rectum: 'Rectum',
  Sarcoma: 'Sarcoma',
  Other: 'Other',
} as const;
export type CancerSite = (typeof CancerSite)[keyof typeof CancerSite];
export const CANCER_SITES = valuesOf(CancerSite);

/** The AJCC stage group, or Unknown. */
export const CANCER_STAGES = ['I', 'II', 'IIA', 'IIB', 'IIC', 'III', 'IIIA', 'IIIB', 'IIIC', 'IV', 'IVA', 'IVB', 'Unknown'] as const;
export type CancerStage = (typeof CANCER_STAGES)[number];

/** Gleason pattern (primary and secondary, prostate only): 3 to 5. */
export const GLEASON_PATTERN_MIN = 3;
export const GLEASON_PATTERN_MAX = 5;

/** The ISUP grade group of a Gleason primary + secondary pattern. */
export function gradeGroup(primary: number, secondary: number): number {
  const score = primary + secondary;
  if (score <= 6) return 1;
  if (score === 7) return primary === 3 ? 2 : 3;
  return score === 8 ? 4 : 5;
}

export const CANCER_DETAIL_MAX_LENGTH = 200;
export const PSA_MAX = 10_000;

export interface CancerDiagnosisBody {
  sampleId: number;
  site: CancerSite;
  /** The cancer's name when the site is Other; a histology note otherwise (optional). */
  diagnosis?: string | null;
  diagnosedOn: string;
  stage?: CancerStage | null;
  gleasonPrimary?: number | null;
  gleasonSecondary?: number | null;
  /** PSA at diagnosis, ng/mL (prostate only). */
  psa?: number | null;
  plannedTreatment?: RadiationTreatment | null;
}

/** What the clinic sees of a sample's registered diagnosis. */
export const CancerDiagnosisView = s.object({
  sampleId: s.integer,
  site: s.oneOf(CANCER_SITES),
  diagnosis: s.nullable(s.string),
  diagnosedOn: s.string,
  stage: s.nullable(s.oneOf(CANCER_STAGES)),
  gleasonPrimary: s.nullable(s.integer),
  gleasonSecondary: s.nullable(s.integer),
  psa: s.nullable(s.number),
  plannedTreatment: s.nullable(s.oneOf(RADIATION_TREATMENTS)),
  gradeGroup: s.nullable(s.integer),
  recordedAt: s.string,
});
export type CancerDiagnosisView = s.Infer<typeof CancerDiagnosisView>;

/** POST sample/{id}/add-cfrt-test: the test added, and the sample's tests now. */
export const AddedCfrtTest = s.object({ testId: s.integer, sampleId: s.integer, barcode: s.string, tests: s.array(s.string) });
export type AddedCfrtTest = s.Infer<typeof AddedCfrtTest>;

/** The statuses a sample may get a test added in: not yet past testing (a stored sample counts by the status it left). */
export const ADD_TEST_SAMPLE_STATUSES: readonly SampleStatus[] = [
  SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting,
];

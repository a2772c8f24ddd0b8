/** The tests the lab knows (SPEC §3): their names, parent test types, the research tests, and which PROSTOX test fits which treatment. */
import { valuesOf } from '../shared/values';

export const ParentTestType = {
  Prostox: 'PROSTOX',
  Previotox: 'PREVIOTOX',
  Kras: 'KRAS',
  HeadAndNeck: 'HEAD AND NECK',
  Sarcoma: 'SARCOMA',
  RectalCancer: 'RECTAL CANCER',
  BreastTox: 'BREAST TOX',
} as const;
export type ParentTestType = (typeof ParentTestType)[keyof typeof ParentTestType];
export const PARENT_TEST_TYPES = valuesOf(ParentTestType);

/** Every test name the lab knows: the orderable ones and the lab's own (SPEC §3). */
export const TestName = {
  ProstoxUltra: 'PROSTOX ultra',
  ProstoxCfrt: 'PROSTOX CFRT',
  ProstoxResearch: 'PROSTOX Research',
  Kras: 'KRAS',
  Previotox: 'PREVIOTOX',
  HeadAndNeck: 'HEAD AND NECK',
  Sarcoma: 'SARCOMA',
  RectalCancer: 'RECTAL CANCER',
  BreastTox: 'BREAST TOX',
  CovidPcr: 'COVID-19 PCR',
  CovidRapid: 'COVID-19 Rapid',
  DnaExtraction: 'DNA Extraction',
  Imudx: 'IMUDX',
  SarsCov2Lineage: 'SARS-CoV-2 lineage identifier',
} as const;
export type TestName = (typeof TestName)[keyof typeof TestName];
export const TEST_NAMES = valuesOf(TestName);

/** SPEC §3 "Research tests list", in the spec's own words. */
export const RESEARCH_TESTS = ['head and neck', 'PROSTOX Research', 'sarcoma', 'rectal cancer', 'breast tox'] as const;

export interface TreatmentOption {
  test: TestName;
  sessions: string;
  duration: string;
  riskOf: string;
}
export const TREATMENT_OPTIONS: readonly TreatmentOption[] = [
  { test: TestName.ProstoxUltra, sessions: 'fewer than 7 sessions', duration: '1-2 weeks', riskOf: 'risk of toxicity from SBRT' },
  { test: TestName.ProstoxCfrt, sessions: '35 or more sessions', duration: '8-10 weeks', riskOf: 'risk from MHFRT and CFRT' },
];

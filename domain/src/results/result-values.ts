/** The values a result takes (SPEC §3: COVID PCR results, risk levels, KRAS genotypes) and the statuses of a result version. */
import { valuesOf } from '../shared/values';

export const CovidPcrResult = {
  Detected: 'DETECTED',
  NotDetected: 'NOT DETECTED',
  Invalid: 'INVALID',
  Indeterminate: 'INDETERMINATE',
  Rejected: 'REJECTED',
} as const;
export type CovidPcrResult = (typeof CovidPcrResult)[keyof typeof CovidPcrResult];
export const COVID_PCR_RESULTS = valuesOf(CovidPcrResult);

/** The text printed on a report for each COVID PCR result (SPEC §3 "Result texts"). */
export const COVID_PCR_RESULT_TEXT: Record<CovidPcrResult, string> = {
  [CovidPcrResult.NotDetected]: 'Not detected',
  [CovidPcrResult.Indeterminate]: 'Indeterminate, recollection in 2-3 days',
  [CovidPcrResult.Detected]: 'Detected',
  [CovidPcrResult.Invalid]: 'Sample rejected, no RNA isolated, recollection recommended',
  [CovidPcrResult.Rejected]: 'Rejected, sample not received',
};

export const RiskLevel = {
  LowAverage: 'Low-Average Risk',
  Intermediate: 'Intermediate Risk',
  High: 'High Risk',
  VeryHigh: 'Very High Risk',
} as const;
export type RiskLevel = (typeof RiskLevel)[keyof typeof RiskLevel];
export const RISK_LEVELS = valuesOf(RiskLevel);

export const TwoLevelRisk = { Low: 'Low Risk', High: 'High Risk' } as const;
export type TwoLevelRisk = (typeof TwoLevelRisk)[keyof typeof TwoLevelRisk];
export const TWO_LEVEL_RISKS = valuesOf(TwoLevelRisk);

export const KrasGenotype = {
  Negative: 'T/T negative',
  PositiveHomozygous: 'G/G positive homozygous',
  PositiveHeterozygous: 'T/G positive heterozygous',
} as const;
export type KrasGenotype = (typeof KrasGenotype)[keyof typeof KrasGenotype];
export const KRAS_GENOTYPES = valuesOf(KrasGenotype);

/** A result version: waits in review, then released or rejected; a released one is superseded by its correction. */
export const TestResultStatus = {
  InReview: 'In Review',
  Released: 'Released',
  Rejected: 'Rejected',
  Superseded: 'Superseded',
} as const;
export type TestResultStatus = (typeof TestResultStatus)[keyof typeof TestResultStatus];
export const TEST_RESULT_STATUSES = valuesOf(TestResultStatus);

/**
 * The test catalogue: every test the lab knows (SPEC §3), which portal may order it, what a
 * patient pays (SPEC §9 read through SPEC-NOTES.md, in cents) and the scale its result is
 * reported on. Pure data and functions, no I/O.
 */
import { MIRAKIND_DONATION_SHARE } from './constants';
import {
  COVID_PCR_RESULT_TEXT,
  COVID_PCR_RESULTS,
  KRAS_GENOTYPES,
  KrasGenotype,
  ParentTestType,
  Portal,
  RISK_LEVELS,
  RiskLevel,
  TestName,
  TEST_NAMES,
  TWO_LEVEL_RISKS,
  TwoLevelRisk,
  type CovidPcrResult,
} from './enums';

/**
 * The scale a result is reported on:
 * - `risk4`: Low-Average / Intermediate / High / Very High Risk;
 * - `risk2`: Low / High Risk (accepted as an alternative input of the toxicity imports);
 * - `kras`: a KRAS genotype;
 * - `covid`: a COVID PCR result (DETECTED, NOT DETECTED, ...);
 * - `lineage`: a SARS-CoV-2 Pango lineage name (e.g. BA.2.86, XBB.1.5).
 */
export type ResultScale = 'risk4' | 'risk2' | 'kras' | 'covid' | 'lineage';

export interface CatalogueEntry {
  name: TestName;
  /** The parent test type, or null for the lab's own tests (COVID, DNA extraction, ...). */
  parentType: ParentTestType | null;
  /** The portals that may order the test; empty for tests only the lab adds. */
  portals: readonly Portal[];
  /** A research test (SPEC §3 research tests list): no patient price, not for patient management. */
  research: boolean;
  /** What a patient pays when ordering through the Patient Portal, in cents; null when patients cannot. */
  selfPayCents: number | null;
  /** What a patient approved for financial assistance pays, in cents; null when patients cannot order. */
  assistanceCents: number | null;
  /** The scale the lab report prints; null for a processing step that reports no result value. */
  scale: ResultScale | null;
  /** Every scale a result may be entered or imported on (the report scale first). */
  acceptedScales: readonly ResultScale[];
  /** What the risk is a risk of, for the interpretation on the report (risk tests only). */
  riskOf?: string;
}

const RISK_SCALES: readonly ResultScale[] = ['risk4', 'risk2'];
const { Clinical, Patient, Research } = Portal;

function riskTest(
  name: TestName,
  parentType: ParentTestType,
  portals: readonly Portal[],
  research: boolean,
  prices: { selfPayCents: number; assistanceCents: number } | null,
  riskOf: string,
): CatalogueEntry {
  return {
    name, parentType, portals, research,
    selfPayCents: prices?.selfPayCents ?? null,
    assistanceCents: prices?.assistanceCents ?? null,
    scale: 'risk4', acceptedScales: RISK_SCALES, riskOf,
  };
}

function labTest(name: TestName, scale: ResultScale | null, acceptedScales: readonly ResultScale[] = scale ? [scale] : []): CatalogueEntry {
  return { name, parentType: null, portals: [], research: false, selfPayCents: null, assistanceCents: null, scale, acceptedScales };
}

/** Self-pay price of a PROSTOX ultra, PROSTOX CFRT or PREVIOTOX patient order (USD 500). */
const TOX_PRICES = { selfPayCents: 500_00, assistanceCents: 100_00 };

/** The catalogue, one entry per TestName, in the order of TEST_NAMES. */
export const TEST_CATALOGUE: Readonly<Record<TestName, CatalogueEntry>> = {
  [TestName.ProstoxUltra]: riskTest(TestName.ProstoxUltra, ParentTestType.Prostox, [Clinical, Patient], false, TOX_PRICES,
    'late toxicity from SBRT (stereotactic body radiation therapy, fewer than 7 sessions over 1-2 weeks)'),
  [TestName.ProstoxCfrt]: riskTest(TestName.ProstoxCfrt, ParentTestType.Prostox, [Clinical, Patient], false, TOX_PRICES,
    'late toxicity from MHFRT and CFRT (moderately hypofractionated and conventionally fractionated radiation therapy, 35 or more sessions over 8-10 weeks)'),
  [TestName.ProstoxResearch]: riskTest(TestName.ProstoxResearch, ParentTestType.Prostox, [Clinical], true, null,
    'late toxicity from prostate radiation therapy'),
  [TestName.Kras]: {
    name: TestName.Kras, parentType: ParentTestType.Kras, portals: [Clinical, Patient], research: false,
    selfPayCents: 129_00, assistanceCents: 100_00, scale: 'kras', acceptedScales: ['kras'],
  },
  [TestName.Previotox]: riskTest(TestName.Previotox, ParentTestType.Previotox, [Clinical, Research, Patient], false, TOX_PRICES,
    'late toxicity from radiation therapy'),
  [TestName.HeadAndNeck]: riskTest(TestName.HeadAndNeck, ParentTestType.HeadAndNeck, [Research], true, null,
    'toxicity from head and neck radiation therapy'),
  [TestName.Sarcoma]: riskTest(TestName.Sarcoma, ParentTestType.Sarcoma, [Research], true, null,
    'toxicity from sarcoma radiation therapy'),
  [TestName.RectalCancer]: riskTest(TestName.RectalCancer, ParentTestType.RectalCancer, [Research], true, null,
    'toxicity from rectal cancer radiation therapy'),
  [TestName.BreastTox]: riskTest(TestName.BreastTox, ParentTestType.BreastTox, [Research], true, null,
    'toxicity from breast radiation therapy'),
  [TestName.CovidPcr]: labTest(TestName.CovidPcr, 'covid'),
  [TestName.CovidRapid]: labTest(TestName.CovidRapid, 'covid'),
  [TestName.DnaExtraction]: labTest(TestName.DnaExtraction, null),
  [TestName.Imudx]: { ...labTest(TestName.Imudx, 'risk4', RISK_SCALES), riskOf: 'immune-related toxicity from cancer treatment' },
  [TestName.SarsCov2Lineage]: labTest(TestName.SarsCov2Lineage, 'lineage'),
};

/** The combined patient order of PROSTOX ultra and PROSTOX CFRT (SPEC §9 "both ... 1000"; assistance 100 each). */
export const PROSTOX_BOTH = {
  tests: [TestName.ProstoxUltra, TestName.ProstoxCfrt] as readonly TestName[],
  selfPayCents: 1000_00,
  assistanceCents: 200_00,
} as const;

/** The catalogue entry of a test; throws for a name that is not a TestName. */
export function catalogueEntry(name: TestName): CatalogueEntry {
  const entry = (TEST_CATALOGUE as Record<string, CatalogueEntry | undefined>)[name];
  if (!entry) throw new RangeError(`Unknown test: ${String(name)}`);
  return entry;
}

/** True when the string is one of the catalogue's test names. */
export function isTestName(value: string): value is TestName {
  return (TEST_NAMES as readonly string[]).includes(value);
}

/** The tests a portal may order, in catalogue order. */
export function testsOrderableIn(portal: Portal): TestName[] {
  return TEST_NAMES.filter((name) => TEST_CATALOGUE[name].portals.includes(portal));
}

/** True when the portal may order the test. */
export function canOrderIn(name: TestName, portal: Portal): boolean {
  return catalogueEntry(name).portals.includes(portal);
}

/** The research tests (SPEC §3 research tests list), as TestNames. */
export function researchTests(): TestName[] {
  return TEST_NAMES.filter((name) => TEST_CATALOGUE[name].research);
}

/**
 * What a patient pays for a Patient Portal order, in cents. A patient order is one test the
 * Patient Portal may order, or PROSTOX ultra together with PROSTOX CFRT; anything else throws a
 * RangeError (callers check the order first and show the message).
 */
export function patientPriceCents(names: readonly TestName[], options: { financialAssistance: boolean }): number {
  const unique = [...new Set(names)];
  if (names.length === 0) throw new RangeError('A patient order needs at least one test');
  if (unique.length !== names.length) throw new RangeError('A patient order lists each test once');
  for (const name of unique) {
    if (!canOrderIn(name, Portal.Patient)) throw new RangeError(`${name} cannot be ordered through the Patient Portal`);
  }
  if (unique.length === 1) {
    const entry = catalogueEntry(unique[0]);
    const price = options.financialAssistance ? entry.assistanceCents : entry.selfPayCents;
    if (price === null) throw new RangeError(`${entry.name} has no patient price`);
    return price;
  }
  const both = unique.length === PROSTOX_BOTH.tests.length && PROSTOX_BOTH.tests.every((t) => unique.includes(t));
  if (!both) throw new RangeError('A patient order is one test, or PROSTOX ultra together with PROSTOX CFRT');
  return options.financialAssistance ? PROSTOX_BOTH.assistanceCents : PROSTOX_BOTH.selfPayCents;
}

/** The tax-deductible donation part of a MiraKind order price (20%), in whole cents, rounded half up. */
export function mirakindDonationCents(priceCents: number): number {
  if (!Number.isInteger(priceCents) || priceCents < 0) throw new RangeError('A price is a whole, non-negative number of cents');
  return Math.round(priceCents * MIRAKIND_DONATION_SHARE);
}

/** A SARS-CoV-2 Pango lineage name: 1-3 capital letters, then dot-separated numbers (B.1.1.7, BA.2.86, XBB.1.5). */
export const PANGO_LINEAGE_PATTERN = /^[A-Z]{1,3}(?:\.\d{1,4}){0,8}$/;

/** The values of one scale (null for the open-ended lineage scale). */
export function scaleValues(scale: ResultScale): readonly string[] | null {
  switch (scale) {
    case 'risk4': return RISK_LEVELS;
    case 'risk2': return TWO_LEVEL_RISKS;
    case 'kras': return KRAS_GENOTYPES;
    case 'covid': return COVID_PCR_RESULTS;
    case 'lineage': return null;
  }
}

function isOnScale(scale: ResultScale, value: string): boolean {
  const values = scaleValues(scale);
  return values === null ? PANGO_LINEAGE_PATTERN.test(value) : values.includes(value);
}

/** True when the value is a result the test can report, on any of its accepted scales (exact strings). */
export function isValidResultValue(name: TestName, value: string): boolean {
  return catalogueEntry(name).acceptedScales.some((scale) => isOnScale(scale, value));
}

const RISK_SENTENCE: Record<RiskLevel | TwoLevelRisk, (riskOf: string) => string> = {
  [RiskLevel.LowAverage]: (r) => `The patient has a low to average genetic risk of ${r}, no higher than that of patients in general receiving this treatment.`,
  [RiskLevel.Intermediate]: (r) => `The patient has an intermediate genetic risk of ${r}.`,
  [RiskLevel.High]: (r) => `The patient has a high genetic risk of ${r}. The treating physician may consider this when choosing the treatment and its follow-up.`,
  [RiskLevel.VeryHigh]: (r) => `The patient has a very high genetic risk of ${r}. The treating physician may consider an alternative treatment or measures to reduce toxicity.`,
  [TwoLevelRisk.Low]: (r) => `The patient has a low genetic risk of ${r}.`,
};

const KRAS_SENTENCE: Record<KrasGenotype, string> = {
  [KrasGenotype.Negative]: 'KRAS-variant not detected (genotype T/T): the patient carries no copy of the variant G allele.',
  [KrasGenotype.PositiveHeterozygous]: 'KRAS-variant detected (genotype T/G, heterozygous): the patient carries one copy of the variant G allele.',
  [KrasGenotype.PositiveHomozygous]: 'KRAS-variant detected (genotype G/G, homozygous): the patient carries two copies of the variant G allele.',
};

const RESEARCH_NOTE = 'For research use only; not for use in patient management.';
const CLINICAL_NOTE = 'This result is one factor among others and does not replace clinical judgement.';

/**
 * The short plain-English interpretation printed on a lab report for a result. Throws a
 * RangeError when the value is not a result of that test (check with isValidResultValue first).
 */
export function resultInterpretation(name: TestName, value: string): string {
  const entry = catalogueEntry(name);
  const scale = entry.acceptedScales.find((s) => isOnScale(s, value));
  if (!scale) throw new RangeError(`${JSON.stringify(value)} is not a result of ${entry.name}`);
  switch (scale) {
    case 'risk4':
    case 'risk2': {
      const sentence = RISK_SENTENCE[value as RiskLevel | TwoLevelRisk](entry.riskOf ?? 'toxicity');
      return `${sentence} ${entry.research ? RESEARCH_NOTE : CLINICAL_NOTE}`;
    }
    case 'kras':
      return KRAS_SENTENCE[value as KrasGenotype];
    case 'covid':
      return COVID_PCR_RESULT_TEXT[value as CovidPcrResult];
    case 'lineage':
      return `SARS-CoV-2 lineage ${value} identified.`;
  }
}

/**
 * The test catalogue: every test the lab knows (SPEC §3), which portal may order it, what a
 * patient pays (SPEC §9 read through SPEC-NOTES.md, in cents; the prices of an order are in
 * payments/prices.ts) and the scale its result is reported on. Pure data and functions, no I/O.
 */
import { Portal } from '../orders/orders';
import {
  COVID_PCR_RESULT_TEXT, COVID_PCR_RESULTS, type CovidPcrResult, KRAS_GENOTYPES, KrasGenotype, RISK_LEVELS, RiskLevel,
  TWO_LEVEL_RISKS, TwoLevelRisk,
} from '../results/result-values';
import { SampleType } from '../samples/sample-types';
import { ParentTestType, TEST_NAMES, TestName } from './tests';

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

/** The scale a result value of a test is on ('High Risk' on PROSTOX ultra -> 'risk4'), or null. */
export function resultScaleOf(test: TestName, value: string): ResultScale | null {
  return catalogueEntry(test).acceptedScales.find((s) => {
    const values = scaleValues(s);
    return values !== null && values.includes(value);
  }) ?? null;
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

// ---------------------------------------------------------------------------------------------
// What the lab report says of each test and specimen (42 CFR 493.1291: the method, its
// limitations, the specimen's source). Data, one entry per test and per sample type, so a new
// test or sample type cannot reach a report without it.
// ---------------------------------------------------------------------------------------------

export interface TestMethod {
  /** How the test is performed, in one or two sentences. */
  method: string;
  /** What the result cannot tell, as the report prints it. */
  limitations: string;
}

const LDT_NOTE = 'This test was developed and its performance characteristics determined by the laboratory; it has not been cleared or approved by the U.S. Food and Drug Administration.';
const RISK_METHOD: TestMethod = {
  method: 'Germline DNA extracted from the specimen is genotyped for a panel of single-nucleotide polymorphisms by microarray; the genetic risk level is computed from the genotypes with a validated multi-marker prediction model.',
  limitations: `The result is a genetic risk estimate only: it does not account for radiation dose, technique, other treatments or comorbidities, and markers outside the panel are not assessed. ${LDT_NOTE}`,
};
const RESEARCH_RISK_METHOD: TestMethod = {
  method: RISK_METHOD.method,
  limitations: `For research use only; not for use in patient management. Markers outside the panel are not assessed. ${LDT_NOTE}`,
};

export const TEST_METHODS: Readonly<Record<TestName, TestMethod>> = {
  [TestName.ProstoxUltra]: RISK_METHOD,
  [TestName.ProstoxCfrt]: RISK_METHOD,
  [TestName.ProstoxResearch]: RESEARCH_RISK_METHOD,
  [TestName.Kras]: {
    method: 'Allele-specific real-time PCR genotyping of the KRAS-variant (rs61764370, T>G) in germline DNA extracted from the specimen.',
    limitations: `Only the KRAS-variant is tested: other germline variants and somatic (tumour) KRAS mutations are not detected. ${LDT_NOTE}`,
  },
  [TestName.Previotox]: RISK_METHOD,
  [TestName.HeadAndNeck]: RESEARCH_RISK_METHOD,
  [TestName.Sarcoma]: RESEARCH_RISK_METHOD,
  [TestName.RectalCancer]: RESEARCH_RISK_METHOD,
  [TestName.BreastTox]: RESEARCH_RISK_METHOD,
  [TestName.CovidPcr]: {
    method: 'Real-time reverse-transcription PCR (RT-PCR) for SARS-CoV-2 RNA, run with positive and negative controls on every plate.',
    limitations: 'A not-detected result does not exclude infection: it depends on the timing and quality of the collection and is read with the clinical picture.',
  },
  [TestName.CovidRapid]: {
    method: 'Rapid immunoassay for SARS-CoV-2 nucleocapsid antigen, run with positive and negative external controls.',
    limitations: 'Less sensitive than RT-PCR: a not-detected result does not exclude infection and should be confirmed by RT-PCR when clinically indicated.',
  },
  [TestName.DnaExtraction]: {
    method: 'Automated extraction of genomic DNA with spectrophotometric measurement of concentration and purity (A260/280).',
    limitations: 'A processing step: no clinical result is reported.',
  },
  [TestName.Imudx]: {
    method: RISK_METHOD.method,
    limitations: `The result is a genetic risk estimate only and does not account for the treatment given or other clinical factors. ${LDT_NOTE}`,
  },
  [TestName.SarsCov2Lineage]: {
    method: 'Whole-genome sequencing of SARS-CoV-2 with lineage assignment by the Pango nomenclature.',
    limitations: 'For epidemiological purposes: a low viral load may prevent a lineage call, and the lineage does not guide treatment.',
  },
};

/** The method and limitations of a test, as its lab report prints them. */
export function testMethodOf(name: TestName): TestMethod {
  return TEST_METHODS[name];
}

/** Where each specimen type comes from (the report's "specimen source"). */
export const SPECIMEN_SOURCES: Readonly<Record<SampleType, string>> = {
  [SampleType.BuccalSwab]: 'Buccal mucosa (inside of the cheek), swab',
  [SampleType.Blood]: 'Peripheral venous blood',
  [SampleType.Saliva]: 'Oral cavity, saliva',
  [SampleType.Plasma]: 'Peripheral venous blood, plasma',
  [SampleType.Oropharyngeal]: 'Oropharynx (throat), swab',
  [SampleType.NasalCavity]: 'Anterior nares (nose), swab',
  [SampleType.Nasopharyngeal]: 'Nasopharynx, swab',
};

/** The source of a stored sample type, or null when none is recorded (or it is not one of the spec's). */
export function specimenSourceOf(sampleType: string | null | undefined): string | null {
  if (!sampleType) return null;
  return (SPECIMEN_SOURCES as Record<string, string | undefined>)[sampleType] ?? null;
}

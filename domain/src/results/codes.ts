/**
 * The one code table of the lab's interfaces (FHIR R4, HL7 v2 ORU/ORM, ELR): what each test, each
 * result value and each specimen type is in LOINC and SNOMED CT where those have the concept, and in
 * the lab's own code systems where they do not (PROSTOX, PREVIOTOX, KRAS, the research panels, the
 * risk levels and genotypes). Pure data, no FHIR library types: a code names its system by a key
 * (`codeSystemUri` gives the FHIR URI, `HL7V2_CODING_SYSTEMS` the HL7 v2 name).
 *
 * The lab's code systems are published by the server at their canonical URL,
 * `{PUBLIC_URL}/fhir/R4/CodeSystem/{id}` (labCodeSystemUrl): one deployment is one lab, so its
 * public URL names the lab's namespace, and a client can resolve every system it is sent. The
 * public URL of a production deployment must therefore never change (codes stored by clinics would
 * no longer match).
 */
import { TestName } from '../catalogue/tests';
import { catalogueEntry, isTestName, isValidResultValue, resultInterpretation } from '../catalogue/catalogue';
import { COVID_PCR_RESULT_TEXT, CovidPcrResult, KrasGenotype, RiskLevel, TwoLevelRisk } from './result-values';
import { SampleType } from '../samples/sample-types';

/**
 * The US registries whose identifiers the interfaces carry, as OIDs: CLIA numbers (CMS) and NPIs.
 * FHIR writes them `urn:oid:…`; HL7 v2 as an assigning authority's universal id.
 */
export const CLIA_OID = '2.16.840.1.113883.4.7';
export const NPI_OID = '2.16.840.1.113883.4.6';

/** The code systems the table uses, by key. */
export const CodeSystemKey = {
  Loinc: 'LOINC',
  SnomedCt: 'SNOMED_CT',
  /** The lab's tests (orderables and observations) that LOINC does not have. */
  LabTests: 'LAB_TESTS',
  /** The lab's result values that SNOMED CT does not have (risk levels, KRAS genotypes, ...). */
  LabResults: 'LAB_RESULTS',
  /** HL7 v3 ObservationInterpretation (Detected / Not detected / Indeterminate). */
  ObservationInterpretation: 'OBSERVATION_INTERPRETATION',
} as const;
export type CodeSystemKey = (typeof CodeSystemKey)[keyof typeof CodeSystemKey];

/** A code: its system (by key), the code, and the display the interfaces send. */
export interface CodeEntry {
  system: CodeSystemKey;
  code: string;
  display: string;
}

/** The external systems' URIs (as FHIR names them). */
export const EXTERNAL_CODE_SYSTEM_URIS = {
  [CodeSystemKey.Loinc]: 'http://loinc.org',
  [CodeSystemKey.SnomedCt]: 'http://snomed.info/sct',
  [CodeSystemKey.ObservationInterpretation]: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
} as const;

/** The lab's own code systems: id (the last segment of the canonical URL), name and description. */
export const LAB_CODE_SYSTEMS = {
  [CodeSystemKey.LabTests]: {
    id: 'lab-tests',
    name: 'LabTests',
    title: 'Tests of the laboratory',
    description: 'The tests the laboratory performs that LOINC does not name (genetic radiation-toxicity risk tests, the KRAS-variant, research panels and processing steps), with their display names as the laboratory reports them.',
  },
  [CodeSystemKey.LabResults]: {
    id: 'lab-results',
    name: 'LabResults',
    title: 'Result values of the laboratory',
    description: 'The result values of the laboratory\'s tests that SNOMED CT does not name: genetic risk levels, KRAS-variant genotypes, and a COVID-19 result rejected because the sample was not received.',
  },
} as const;
export type LabCodeSystemKey = keyof typeof LAB_CODE_SYSTEMS;

/** Where the server publishes the lab's code systems, under its public URL. */
export const LAB_CODE_SYSTEM_PATH = '/fhir/R4/CodeSystem';

/** The canonical URL of one of the lab's code systems (`https://lab.example/fhir/R4/CodeSystem/lab-tests`). */
export function labCodeSystemUrl(publicBaseUrl: string, system: LabCodeSystemKey): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${LAB_CODE_SYSTEM_PATH}/${LAB_CODE_SYSTEMS[system].id}`;
}

/** The URI of any system of the table (the lab's under the public URL). */
export function codeSystemUri(system: CodeSystemKey, publicBaseUrl: string): string {
  return system === CodeSystemKey.LabTests || system === CodeSystemKey.LabResults
    ? labCodeSystemUrl(publicBaseUrl, system)
    : EXTERNAL_CODE_SYSTEM_URIS[system];
}

/** HL7 v2 coding system names (table 0396): LN, SCT, and L (local) for the lab's own. */
export const HL7V2_CODING_SYSTEMS: Readonly<Record<CodeSystemKey, string>> = {
  [CodeSystemKey.Loinc]: 'LN',
  [CodeSystemKey.SnomedCt]: 'SCT',
  [CodeSystemKey.LabTests]: 'L',
  [CodeSystemKey.LabResults]: 'L',
  [CodeSystemKey.ObservationInterpretation]: 'HL70078',
};

const loinc = (code: string, display: string): CodeEntry => ({ system: CodeSystemKey.Loinc, code, display });
const snomed = (code: string, display: string): CodeEntry => ({ system: CodeSystemKey.SnomedCt, code, display });
const labTest = (code: string, display: string): CodeEntry => ({ system: CodeSystemKey.LabTests, code, display });
const labResult = (code: string, display: string): CodeEntry => ({ system: CodeSystemKey.LabResults, code, display });
const interpretation = (code: string, display: string): CodeEntry => ({ system: CodeSystemKey.ObservationInterpretation, code, display });

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

export interface TestCodes {
  /** The lab's own code of the test (every test has one; its display is the test's name as the spec writes it). */
  lab: CodeEntry;
  /** The LOINC term of the test, where LOINC has the concept (then the primary code). */
  loinc: CodeEntry | null;
  /** What the result is coded as, when it is not the test itself (the KRAS test reports a genotype). */
  observation: CodeEntry | null;
}

const ownTest = (code: string, name: TestName, observation: CodeEntry | null = null): TestCodes => ({ lab: labTest(code, name), loinc: null, observation });
const loincTest = (code: string, name: TestName, term: CodeEntry): TestCodes => ({ lab: labTest(code, name), loinc: term, observation: null });

/** Every test of the catalogue, coded. */
export const TEST_CODES: Readonly<Record<TestName, TestCodes>> = {
  [TestName.ProstoxUltra]: ownTest('PROSTOX-ULTRA', TestName.ProstoxUltra),
  [TestName.ProstoxCfrt]: ownTest('PROSTOX-CFRT', TestName.ProstoxCfrt),
  [TestName.ProstoxResearch]: ownTest('PROSTOX-RESEARCH', TestName.ProstoxResearch),
  [TestName.Kras]: ownTest('KRAS', TestName.Kras, labTest('KRAS-GENOTYPE', 'KRAS genotype')),
  [TestName.Previotox]: ownTest('PREVIOTOX', TestName.Previotox),
  [TestName.HeadAndNeck]: ownTest('HEAD-AND-NECK', TestName.HeadAndNeck),
  [TestName.Sarcoma]: ownTest('SARCOMA', TestName.Sarcoma),
  [TestName.RectalCancer]: ownTest('RECTAL-CANCER', TestName.RectalCancer),
  [TestName.BreastTox]: ownTest('BREAST-TOX', TestName.BreastTox),
  [TestName.CovidPcr]: loincTest('COVID-19-PCR', TestName.CovidPcr,
    loinc('94500-6', 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection')),
  [TestName.CovidRapid]: loincTest('COVID-19-RAPID', TestName.CovidRapid,
    loinc('94558-4', 'SARS-CoV-2 (COVID-19) Ag [Presence] in Respiratory system specimen by Rapid immunoassay')),
  [TestName.DnaExtraction]: ownTest('DNA-EXTRACTION', TestName.DnaExtraction),
  [TestName.Imudx]: ownTest('IMUDX', TestName.Imudx),
  [TestName.SarsCov2Lineage]: loincTest('SARS-COV-2-LINEAGE', TestName.SarsCov2Lineage,
    loinc('100157-7', 'SARS-CoV-2 (COVID-19) lineage [Type] in Specimen by Sequencing')),
};

/** The codes of a test, primary first: its LOINC term where there is one, then the lab's code. */
export function testCodes(name: TestName): CodeEntry[] {
  const c = TEST_CODES[name];
  return c.loinc ? [c.loinc, c.lab] : [c.lab];
}

/** The codes its result (observation) is reported under, primary first. */
export function observationCodes(name: TestName): CodeEntry[] {
  const c = TEST_CODES[name];
  return c.observation ? [c.observation] : testCodes(name);
}

/** The tests a code names (as an order or as an observation); `system` null matches any system. */
export function testsWithCode(code: string, system: CodeSystemKey | null): TestName[] {
  return (Object.keys(TEST_CODES) as TestName[]).filter((name) =>
    [...testCodes(name), ...observationCodes(name)].some((c) => c.code === code && (system === null || c.system === system)));
}

// ---------------------------------------------------------------------------------------------
// Result values
// ---------------------------------------------------------------------------------------------

export interface ResultValueCode {
  /** The value's code (SNOMED CT where it has the concept, else the lab's). */
  code: CodeEntry;
  /** The HL7 v3 ObservationInterpretation of a qualitative result, where one fits. */
  interpretation: CodeEntry | null;
  /** No result was obtained (the sample never reached the test): reported as cancelled (FHIR) / X (HL7 v2 OBX-11). */
  noResult: boolean;
}

const value = (code: CodeEntry, interp: CodeEntry | null = null, noResult = false): ResultValueCode => ({ code, interpretation: interp, noResult });

/** COVID-19 results (PCR and rapid antigen): SNOMED CT as public health expects them. */
export const COVID_RESULT_CODES: Readonly<Record<CovidPcrResult, ResultValueCode>> = {
  [CovidPcrResult.Detected]: value(snomed('260373001', 'Detected'), interpretation('DET', 'Detected')),
  [CovidPcrResult.NotDetected]: value(snomed('260415000', 'Not detected'), interpretation('ND', 'Not detected')),
  [CovidPcrResult.Indeterminate]: value(snomed('82334004', 'Indeterminate'), interpretation('IND', 'Indeterminate')),
  [CovidPcrResult.Invalid]: value(snomed('455371000124106', 'Invalid result')),
  [CovidPcrResult.Rejected]: value(labResult('REJECTED', CovidPcrResult.Rejected), null, true),
};

/** Risk levels (four-level and two-level scales share the 'High Risk' concept). */
export const RISK_RESULT_CODES: Readonly<Record<RiskLevel | TwoLevelRisk, ResultValueCode>> = {
  [RiskLevel.LowAverage]: value(labResult('LOW-AVERAGE-RISK', RiskLevel.LowAverage)),
  [RiskLevel.Intermediate]: value(labResult('INTERMEDIATE-RISK', RiskLevel.Intermediate)),
  [RiskLevel.High]: value(labResult('HIGH-RISK', RiskLevel.High)),
  [RiskLevel.VeryHigh]: value(labResult('VERY-HIGH-RISK', RiskLevel.VeryHigh)),
  [TwoLevelRisk.Low]: value(labResult('LOW-RISK', TwoLevelRisk.Low)),
};

/** KRAS-variant genotypes (rs61764370): the spec's strings as displays. */
export const KRAS_GENOTYPE_CODES: Readonly<Record<KrasGenotype, ResultValueCode>> = {
  [KrasGenotype.Negative]: value(labResult('KRAS-TT', KrasGenotype.Negative)),
  [KrasGenotype.PositiveHomozygous]: value(labResult('KRAS-GG', KrasGenotype.PositiveHomozygous)),
  [KrasGenotype.PositiveHeterozygous]: value(labResult('KRAS-TG', KrasGenotype.PositiveHeterozygous)),
};

/**
 * The code of a result value by the value alone (the scales' values do not overlap), or null for
 * an open-ended value (a SARS-CoV-2 lineage name is sent as text) or a value the table does not know.
 */
export function resultValueCode(value: string): ResultValueCode | null {
  return (COVID_RESULT_CODES as Record<string, ResultValueCode | undefined>)[value]
    ?? (RISK_RESULT_CODES as Record<string, ResultValueCode | undefined>)[value]
    ?? (KRAS_GENOTYPE_CODES as Record<string, ResultValueCode | undefined>)[value]
    ?? null;
}

/**
 * A result value in words, as every interface sends it beside its code: a COVID-19 result's report
 * text ('Detected', 'Rejected, sample not received'), any other value as it is.
 */
export function resultValueText(testName: string, value: string): string {
  const isCovid = isTestName(testName) && catalogueEntry(testName).scale === 'covid';
  return isCovid && value in COVID_PCR_RESULT_TEXT ? COVID_PCR_RESULT_TEXT[value as CovidPcrResult] : value;
}

/** The report's interpretation of a result (a FHIR note, an HL7 v2 NTE), or null when the value is not one of the test's results. */
export function resultInterpretationText(testName: string, value: string): string | null {
  if (!isTestName(testName) || !isValidResultValue(testName, value)) return null;
  return resultInterpretation(testName, value);
}

/** What the lab report itself is (the PDF sent beside the results, an HL7 v2 OBX of type ED). */
export const LAB_REPORT_DOCUMENT_CODE: CodeEntry = loinc('11502-2', 'Laboratory report');

/** Every code of the lab's own code systems, in table order (what the server publishes). */
export function labCodeSystemConcepts(system: LabCodeSystemKey): CodeEntry[] {
  const all: CodeEntry[] = system === CodeSystemKey.LabTests
    ? (Object.values(TEST_CODES) as TestCodes[]).flatMap((c) => [c.lab, ...(c.observation ? [c.observation] : [])])
    : [...Object.values(COVID_RESULT_CODES), ...Object.values(RISK_RESULT_CODES), ...Object.values(KRAS_GENOTYPE_CODES)].map((v) => v.code);
  const seen = new Set<string>();
  return all.filter((c) => c.system === system && !seen.has(c.code) && seen.add(c.code));
}

// ---------------------------------------------------------------------------------------------
// Specimens
// ---------------------------------------------------------------------------------------------

/** SNOMED CT specimen concepts of the sample types, where the table has one (a buccal swab is sent as text). */
export const SPECIMEN_TYPE_CODES: Readonly<Record<SampleType, CodeEntry | null>> = {
  [SampleType.BuccalSwab]: null,
  [SampleType.Blood]: snomed('119297000', 'Blood specimen'),
  [SampleType.Saliva]: snomed('119342007', 'Saliva specimen'),
  [SampleType.Plasma]: snomed('119361006', 'Plasma specimen'),
  [SampleType.Oropharyngeal]: snomed('258529004', 'Throat swab'),
  [SampleType.NasalCavity]: snomed('697989009', 'Anterior nares swab'),
  [SampleType.Nasopharyngeal]: snomed('258500001', 'Nasopharyngeal swab'),
};

/** The specimen code of a stored sample type, or null. */
export function specimenTypeCode(sampleType: string | null | undefined): CodeEntry | null {
  if (!sampleType) return null;
  return (SPECIMEN_TYPE_CODES as Record<string, CodeEntry | null | undefined>)[sampleType] ?? null;
}

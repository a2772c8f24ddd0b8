/**
 * Every enumeration of SPEC §3, with the spec's exact strings. Each is an object (for names in
 * code) plus the list of its values (for validation, database CHECKs and select boxes).
 */
export function valuesOf<T extends Record<string, string>>(o: T): T[keyof T][] {
  return Object.values(o) as T[keyof T][];
}

export const SampleStatus = {
  OrderPlaced: 'Order Placed',
  PendingShipment: 'Pending Shipment',
  InTransit: 'In Transit',
  InQueue: 'In Queue',
  InTesting: 'In Testing',
  Resulted: 'Resulted',
  Rejected: 'Rejected',
  InStorage: 'In Storage',
  Completed: 'Completed',
  Discarded: 'Discarded',
} as const;
export type SampleStatus = (typeof SampleStatus)[keyof typeof SampleStatus];
export const SAMPLE_STATUSES = valuesOf(SampleStatus);

export const TestOrigin = {
  LabOrdered: 'Lab Ordered',
  PatientOrdered: 'Patient Ordered',
  ProviderOrdered: 'Provider Ordered',
} as const;
export type TestOrigin = (typeof TestOrigin)[keyof typeof TestOrigin];
export const TEST_ORIGINS = valuesOf(TestOrigin);

export const Portal = {
  Research: 'Research Portal',
  Clinical: 'Clinical Portal',
  Patient: 'Patient Portal',
  LabToolbox: 'Lab Toolbox',
} as const;
export type Portal = (typeof Portal)[keyof typeof Portal];
export const PORTALS = valuesOf(Portal);

export const ResultListCategory = {
  Completed: 'COMPLETED',
  Pending: 'PENDING',
  PatientOrdered: 'PATIENT_ORDERED',
  PendingShipmentFromProvider: 'PENDING_SHIPMENT_FROM_PROVIDER',
} as const;
export type ResultListCategory = (typeof ResultListCategory)[keyof typeof ResultListCategory];
export const RESULT_LIST_CATEGORIES = valuesOf(ResultListCategory);

export const SampleType = {
  BuccalSwab: 'Buccal Swab',
  Blood: 'Blood',
  Saliva: 'Saliva',
  Plasma: 'Plasma',
  Oropharyngeal: 'Oropharyngeal',
  NasalCavity: 'Nasal Cavity',
  Nasopharyngeal: 'Nasopharyngeal',
} as const;
export type SampleType = (typeof SampleType)[keyof typeof SampleType];
export const SAMPLE_TYPES = valuesOf(SampleType);
export const RESPIRATORY_SAMPLE_TYPES: readonly SampleType[] = [
  SampleType.Oropharyngeal,
  SampleType.NasalCavity,
  SampleType.Saliva,
];

export const ShipmentStatus = {
  NotReadyToShip: 'Not Ready to Ship',
  ReadyToShip: 'Ready to Ship',
  Shipped: 'Shipped',
  Cancelled: 'Cancelled',
  OnHold: 'On Hold',
} as const;
export type ShipmentStatus = (typeof ShipmentStatus)[keyof typeof ShipmentStatus];
export const SHIPMENT_STATUSES = valuesOf(ShipmentStatus);

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

export const REJECTION_PREFIX = 'Rejected - ';
export const RejectionReason = {
  QuantityNotSufficient: 'Rejected - quantity not sufficient',
  IdentificationMismatch: 'Rejected - identification mismatch',
  SpecimenExpired: 'Rejected - specimen expired',
  SampleNotReceived: 'Rejected - sample not received',
} as const;
export type RejectionReason = (typeof RejectionReason)[keyof typeof RejectionReason];
export const REJECTION_REASONS = valuesOf(RejectionReason);

export const YesNoOther = { Yes: 'Yes', No: 'No', Other: 'Other' } as const;
export type YesNoOther = (typeof YesNoOther)[keyof typeof YesNoOther];
export const YES_NO_OTHER = valuesOf(YesNoOther);

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

export const RequestStatus = { Requested: 'Requested' } as const;
export type RequestStatus = (typeof RequestStatus)[keyof typeof RequestStatus];
export const REQUEST_STATUSES = valuesOf(RequestStatus);

export const AccessStatus = { Pending: 'Pending', Approved: 'Approved', Denied: 'Denied' } as const;
export type AccessStatus = (typeof AccessStatus)[keyof typeof AccessStatus];
export const ACCESS_STATUSES = valuesOf(AccessStatus);

export const RadiationTreatment = {
  Protons: 'Protons',
  Photons: 'Photons',
  BrachytherapyLdr: 'Brachytherapy LDR',
  BrachytherapyHdr: 'Brachytherapy HDR',
} as const;
export type RadiationTreatment = (typeof RadiationTreatment)[keyof typeof RadiationTreatment];
export const RADIATION_TREATMENTS = valuesOf(RadiationTreatment);

export const DocumentType = { LabReport: 'lab_report', TestRequisitionForm: 'test_requisition_form' } as const;
export type DocumentType = (typeof DocumentType)[keyof typeof DocumentType];
export const DOCUMENT_TYPES = valuesOf(DocumentType);

export const ItemKind = { Test: 'Test', Document: 'Document' } as const;
export type ItemKind = (typeof ItemKind)[keyof typeof ItemKind];
export const ITEM_KINDS = valuesOf(ItemKind);

export const FileKind = { Ecm: 'ECM File', Billing: 'Billing File', Order: 'Order File' } as const;
export type FileKind = (typeof FileKind)[keyof typeof FileKind];
export const FILE_KINDS = valuesOf(FileKind);

export const JobStatus = { Pending: 'Pending', Completed: 'Completed', Failed: 'Failed' } as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];
export const JOB_STATUSES = valuesOf(JobStatus);

export const AccountType = {
  ProstoxResearchPartner: 'PROSTOX Research Partner',
  General: 'General',
  MiraKind: 'MiraKind',
} as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];
export const ACCOUNT_TYPES = valuesOf(AccountType);

/** Account roles. The spec writes the third as '{product} Super Admin'; the product name is PROSTOX. */
export const AccountRole = {
  Physician: 'Physician',
  SupportStaff: 'Support Staff',
  SuperAdmin: 'PROSTOX Super Admin',
} as const;
export type AccountRole = (typeof AccountRole)[keyof typeof AccountRole];
export const ACCOUNT_ROLES = valuesOf(AccountRole);

export const EntityKind = {
  Sample: 'sample',
  Patient: 'patient',
  EligibilityQuestion: 'eligibilityQuestion',
  Test: 'test',
  File: 'file',
  Shipment: 'shipment',
} as const;
export type EntityKind = (typeof EntityKind)[keyof typeof EntityKind];
export const ENTITY_KINDS = valuesOf(EntityKind);

export const Specialty = {
  RadiationOncology: 'Radiation Oncology',
  Urology: 'Urology',
  MedicalOncology: 'Medical Oncology',
} as const;
export type Specialty = (typeof Specialty)[keyof typeof Specialty];
export const SPECIALTIES = valuesOf(Specialty);

export const ProviderTitle = { Physician: 'Physician', Nurse: 'Nurse', Other: 'Other' } as const;
export type ProviderTitle = (typeof ProviderTitle)[keyof typeof ProviderTitle];
export const PROVIDER_TITLES = valuesOf(ProviderTitle);

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

/** Who a signed-in user is. Patients never sign in with a password: they reach results by link. */
export const UserKind = { Admin: 'admin', Provider: 'provider', Lab: 'lab' } as const;
export type UserKind = (typeof UserKind)[keyof typeof UserKind];
export const USER_KINDS = valuesOf(UserKind);

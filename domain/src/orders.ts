/**
 * Plain values of clinic ordering (no joi here: the SPA imports these without the validation
 * library). The request schemas that use them are in provider-schemas.ts.
 */
import { MAX_PAGE_SIZE } from './constants';

// ---------------------------------------------------------------------------------------------
// Ordering attestations (SPEC §5)
// ---------------------------------------------------------------------------------------------

export const ATTESTATION_KEYS = ['medicalNecessity', 'informedConsent', 'reimbursementClaim', 'supportingDocumentation'] as const;
export type AttestationKey = (typeof ATTESTATION_KEYS)[number];
export type Attestations = Record<AttestationKey, boolean>;

/**
 * The four ordering attestations in the spec's words: `label` is the checkbox on the order form,
 * `confirmed` the statement printed on the requisition form, `short` names it in an error.
 */
export const ORDER_ATTESTATIONS: readonly { key: AttestationKey; label: string; confirmed: string; short: string }[] = [
  {
    key: 'medicalNecessity',
    label: 'I confirm that the test or tests ordered are medically necessary for this patient.',
    confirmed: 'The ordering physician confirms the medical necessity of the test or tests ordered.',
    short: 'medical necessity',
  },
  {
    key: 'informedConsent',
    label: 'Informed consent has been obtained from the patient for this testing.',
    confirmed: 'Informed consent has been obtained from the patient.',
    short: 'informed consent',
  },
  {
    key: 'reimbursementClaim',
    label: 'The patient acknowledges that the provider will submit a claim for reimbursement for this testing.',
    confirmed: 'The patient acknowledges that the provider will submit a claim for reimbursement.',
    short: 'reimbursement claim',
  },
  {
    key: 'supportingDocumentation',
    label: 'The physician keeps documentation supporting this order in the patient’s record and will furnish it on request.',
    confirmed: 'The physician keeps documentation supporting this order and will furnish it on request.',
    short: 'supporting documentation',
  },
];

// ---------------------------------------------------------------------------------------------
// Patients
// ---------------------------------------------------------------------------------------------

/** Sex as recorded on a patient (HL7 administrative sex codes) and how it is shown. */
export const PatientSex = { Male: 'M', Female: 'F', Other: 'O', Unknown: 'U' } as const;
export type PatientSex = (typeof PatientSex)[keyof typeof PatientSex];
export const PATIENT_SEXES: PatientSex[] = Object.values(PatientSex);
export const PATIENT_SEX_LABELS: Record<PatientSex, string> = { M: 'Male', F: 'Female', O: 'Other', U: 'Unknown' };

/** How a stored sex value is shown ('M' -> 'Male'; anything unknown as stored). */
export function patientSexLabel(value: string | null | undefined): string {
  if (!value) return '';
  return (PATIENT_SEX_LABELS as Record<string, string>)[value] ?? value;
}

/** The earliest date of birth accepted. */
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01';
export const PATIENT_NAME_MAX_LENGTH = 100;

/** Today as YYYY-MM-DD in the local time of whoever validates. */
export function todayDataDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The most samples one shipment may carry. */
export const SHIPMENT_MAX_SAMPLES = MAX_PAGE_SIZE;

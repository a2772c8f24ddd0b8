/** The ordering attestations of SPEC §5, and which of them apply to an order by where it was placed and how it is paid. */
import { PaymentMethod } from '../payments/payments';
import { Portal } from './orders';

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

/**
 * The ordering attestations that apply to an order, by where it was placed and how it is paid. A
 * research order is not billed and not for patient management: medical necessity and the
 * reimbursement claim do not apply; informed consent and the supporting documentation do. A
 * patient's own order paid by the patient (self-pay, financial assistance) is not claimed from an
 * insurer: the reimbursement claim applies only when it is billed to insurance.
 */
export function attestationsFor(portal: Portal | string, paymentMethod: string | null = null): typeof ORDER_ATTESTATIONS {
  if (portal === Portal.Research) return ORDER_ATTESTATIONS.filter((a) => RESEARCH_ATTESTATION_KEYS.includes(a.key));
  if (portal === Portal.Patient && paymentMethod !== PaymentMethod.Insurance) return ORDER_ATTESTATIONS.filter((a) => a.key !== 'reimbursementClaim');
  return ORDER_ATTESTATIONS;
}
export const RESEARCH_ATTESTATION_KEYS: readonly AttestationKey[] = ['informedConsent', 'supportingDocumentation'];

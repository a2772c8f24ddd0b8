/**
 * Patient ordering (docs/patient-ordering-api.md): the Patient Portal's public calls (eligibility,
 * the treating providers, order create, referral, payment, the card payment intent, the order
 * summary, invitation links), the order token this browser keeps in sessionStorage, and the
 * clinic's side (patient invitations, the orders not paid yet, sign-off and cancellation of a
 * patient's order). Names and
 * dates of birth travel only in POST bodies, never in a URL; nothing here imports the UI.
 */
import useSWR from 'swr';
import type {
  CancelPatientOrderBody, CreateInvitationBody, CreatePatientOrderBody, CreatedPatientOrder, EligibilityAnswer, EligibilityAnswers,
  FinancialAssistanceExistsBody, InsurancePlanOption, InvitationAction, InvitationPrefill, PatientInvitationRow, PatientOrderKey,
  PatientOrderSummary, PatientProduct, PaymentIntentAnswer, PrpAccountOption, SignOffContext, SetPaymentBody, SetReferralSourceBody, SignOffPatientOrderBody,
  UnpaidOrderSortField, UnpaidPatientOrderRow,
} from '@platform/domain';
import { ORDER_CANCELLED_CODE, PatientOrderStage } from '@platform/domain';
import { ApiError, apiFetch, queryString } from './fetcher';
import { useApiPage, useApiQuery, useRefreshApi, withErrorHeading } from './query';

export type {
  CreatedPatientOrder, EligibilityAnswer, InsurancePlanOption, InvitationPrefill, PatientInvitationRow, PatientOrderKey, PatientOrderSummary,
  PaymentIntentAnswer, PrpAccountOption, UnpaidPatientOrderRow,
};

// ---------------------------------------------------------------------------------------------
// The order token: this browser's only key to its order (sessionStorage, never a URL)
// ---------------------------------------------------------------------------------------------

const TOKEN_PREFIX = 'patient-order-token:';
const OPEN_ORDER_PREFIX = 'patient-order-open:';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the order still works until the tab closes the page
  }
}

/** Keeps the token of a newly created order for this tab (the complete page reads it back). */
export function rememberOrder(key: PatientOrderKey, product: PatientProduct): void {
  storage()?.setItem(TOKEN_PREFIX + key.orderNumber, key.orderToken);
  storage()?.setItem(OPEN_ORDER_PREFIX + product, key.orderNumber);
}

/** The key of an order this tab created, or null (another tab, another browser, storage cleared). */
export function orderKeyOf(orderNumber: string): PatientOrderKey | null {
  const orderToken = storage()?.getItem(TOKEN_PREFIX + orderNumber) ?? null;
  return orderToken ? { orderNumber, orderToken } : null;
}

/** The order of this product the tab started and has not finished (to resume after a reload or a back step). */
export function openOrderOf(product: PatientProduct): PatientOrderKey | null {
  const orderNumber = storage()?.getItem(OPEN_ORDER_PREFIX + product) ?? null;
  return orderNumber ? orderKeyOf(orderNumber) : null;
}

/** The order is finished (paid, not charged, or abandoned for a new one): a new visit starts afresh. */
export function closeOpenOrder(product: PatientProduct): void {
  storage()?.removeItem(OPEN_ORDER_PREFIX + product);
}

// ---------------------------------------------------------------------------------------------
// The patient's order (public: no sign-in; the CSRF token comes with every POST)
// ---------------------------------------------------------------------------------------------

/** The clinics a patient may name as their treating provider. */
export const usePrpAccounts = (enabled = true) =>
  useApiQuery<PrpAccountOption[]>(enabled ? '/order/prostox/get-prp-accounts' : null, { errorHeading: 'Error retrieving accounts' });

/** The active insurance plans of the admin's list. */
export const useInsurancePlans = () => useApiQuery<InsurancePlanOption[]>('/insurance-plans', { errorHeading: 'Error retrieving insurance plans' });

export const askEligibility = (product: PatientProduct, answers: EligibilityAnswers) =>
  apiFetch<EligibilityAnswer>('/order/eligibility-inquiry', { method: 'POST', body: { product, answers } });

export const createPatientOrder = (body: CreatePatientOrderBody) => apiFetch<CreatedPatientOrder>('/order/create', { method: 'POST', body });

export const setReferralSource = (body: SetReferralSourceBody) => apiFetch<PatientOrderSummary>('/order/set-referral-source', { method: 'POST', body });

export const setPayment = (body: SetPaymentBody) => apiFetch<PatientOrderSummary>('/order/set-payment', { method: 'POST', body });

/** Whether an approved, current financial-assistance record exists for this person (yes or no only). */
export const financialAssistanceExists = (body: FinancialAssistanceExistsBody) =>
  apiFetch<{ exists: boolean }>('/patient/financial-assistance-patient-exists', { method: 'POST', body });

/** The card payment for the order (the amount is the server's, from the catalogue). */
export const createPaymentIntent = (key: PatientOrderKey) => apiFetch<PaymentIntentAnswer>('/stripe/create-payment-intent', { method: 'POST', body: key });

/** Whether a patient command was refused because the clinic cancelled the order (the page then shows it cancelled). */
export const isOrderCancelled = (error: unknown): boolean => error instanceof ApiError && error.code === ORDER_CANCELLED_CODE;

export const fetchOrderSummary = (key: PatientOrderKey) => apiFetch<PatientOrderSummary>('/order/summary', { method: 'POST', body: key });

/** How often the complete page asks again while the payment provider has not yet confirmed the payment. */
export const SUMMARY_POLL_MS = 2000;

type SummaryKey = readonly ['patient-order-summary', string, string];

/**
 * An order's summary, read with a POST (the token stays out of URLs); asked again every couple of
 * seconds while the order is Awaiting Payment (the webhook has not arrived yet). A 404 (an order
 * this token does not open) is the page's to say.
 */
export function usePatientOrderSummary(key: PatientOrderKey | null) {
  return useSWR<PatientOrderSummary, ApiError, SummaryKey | null>(
    key ? ['patient-order-summary', key.orderNumber, key.orderToken] : null,
    ([, orderNumber, orderToken]: SummaryKey) => fetchOrderSummary({ orderNumber, orderToken }),
    withErrorHeading({
      errorHeading: 'Error retrieving your order',
      quietStatuses: [404],
      revalidateOnFocus: false,
      refreshInterval: (latest?: PatientOrderSummary) => (latest?.stage === PatientOrderStage.AwaitingPayment ? SUMMARY_POLL_MS : 0),
    }),
  );
}

type InvitationKey = readonly ['patient-invitation', string];

/** What an invitation link fills in; a 404 or 410 (unknown, used, cancelled, expired) is the page's to say. */
export function useInvitation(invitationToken: string | null) {
  return useSWR<InvitationPrefill, ApiError, InvitationKey | null>(
    invitationToken ? ['patient-invitation', invitationToken] : null,
    ([, token]: InvitationKey) => apiFetch<InvitationPrefill>('/order/invitation', { method: 'POST', body: { invitationToken: token } }),
    withErrorHeading({ errorHeading: 'Error retrieving your invitation', quietStatuses: [400, 404, 410], revalidateOnFocus: false }),
  );
}

// ---------------------------------------------------------------------------------------------
// The clinic's side (/provider-clinic/{accountId}/…)
// ---------------------------------------------------------------------------------------------

const clinicPath = (accountId: number, path: string) => `/provider-clinic/${accountId}/${path}`;

export const INVITATIONS_ERROR = 'Error retrieving patient invitations';

export const usePatientInvitations = (accountId: number, params: { page: number; pageSize: number }) =>
  useApiPage<PatientInvitationRow>(clinicPath(accountId, `patient/invitations?${queryString(params)}`), { errorHeading: INVITATIONS_ERROR });

/** After an invitation command: the account's invitation lists are stale. */
export const useRefreshInvitations = (accountId: number) => useRefreshApi(clinicPath(accountId, 'patient/invitations'));

export const createInvitation = (accountId: number, body: CreateInvitationBody) =>
  apiFetch<PatientInvitationRow>(clinicPath(accountId, 'patient/invitations/create'), { method: 'POST', body });

export const updateInvitation = (accountId: number, id: number, action: InvitationAction) =>
  apiFetch<PatientInvitationRow>(clinicPath(accountId, 'patient/invitations/update'), { method: 'POST', body: { id, action } });

export const UNPAID_ORDERS_ERROR = 'Error retrieving unpaid patient orders';

/** The account's patient orders not paid yet (no sample, so not in the Patient-ordered list); newest first by default. */
export const useUnpaidPatientOrders = (
  accountId: number,
  params: { page: number; pageSize: number; sort?: UnpaidOrderSortField; order?: 'asc' | 'desc' },
) => useApiPage<UnpaidPatientOrderRow>(clinicPath(accountId, `patient-orders/unpaid?${queryString(params)}`), { errorHeading: UNPAID_ORDERS_ERROR });

/** What the sign-off shows first: the patient's answers, the attestations the payment asks, a possible match among the account's patients. */
export const useSignOffContext = (accountId: number, orderId: number) =>
  useApiQuery<SignOffContext>(clinicPath(accountId, `patient-orders/${orderId}/sign-off`), {
    errorHeading: 'Error reading the order to sign off', quietStatuses: [404],
  });

export const signOffPatientOrder = (accountId: number, orderId: number, body: SignOffPatientOrderBody) =>
  apiFetch<unknown>(clinicPath(accountId, `patient-orders/${orderId}/sign-off`), { method: 'POST', body });

export const cancelPatientOrder = (accountId: number, orderId: number, body: CancelPatientOrderBody) =>
  apiFetch<unknown>(clinicPath(accountId, `patient-orders/${orderId}/cancel`), { method: 'POST', body });

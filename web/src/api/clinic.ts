/**
 * The Clinical Portal's endpoints (/api/provider-clinic/{accountId}/…, /api/sample/{barcode}/pdf_order):
 * one SWR hook per resource, the commands, paginated lists that read x-total-count, and the
 * requisition form download (polled while the worker renders it). The patient search and
 * exists-check are POSTs: a patient's name and date of birth never go into a URL.
 */
import useSWR, { useSWRConfig } from 'swr';
import type {
  CatalogueOption, ClinicOrderBody, CreatedOrder, NewPatientBody, PatientDetail, PatientExistsAnswer, PatientExistsBody, PatientSampleView,
  PatientSearchAnswer, PatientSearchBody, PatientSummary, PhysicianOption, ResultListCategory, ResultListRow, ResultListSortField, SampleRow,
  ShipmentView, ShippingRate, TimelineEntry,
} from '@platform/domain';
import { ApiError, apiDownload, apiFetch, queryString } from './fetcher';
import { useApiPage, withErrorHeading, useApiQuery, useRefreshApi } from './query';

export const clinicApiPath = (accountId: number, path: string) => `/provider-clinic/${accountId}/${path}`;

// ---------------------------------------------------------------------------------------------
// Shapes the API answers
// ---------------------------------------------------------------------------------------------

// Declared once in domain/src/provider-views.ts (the API's services return them).
export type {
  CatalogueOption, CreatedOrder, PatientDetail, PatientExistsAnswer, PatientSampleView as PatientSample, PatientSearchAnswer, PatientSummary,
  PhysicianOption, ResultListRow, SampleRow, ShipmentView, ShippingRate, TimelineEntry,
};

/** Required on the new-patient form; every other field of NewPatientBody is optional text here. */
type RequiredPatientField = 'firstName' | 'lastName' | 'dateOfBirth' | 'sex';
/** What the new-patient form sends (the API stores an absent or empty optional field as null). */
export type NewPatientInput = Pick<NewPatientBody, RequiredPatientField> & {
  [K in Exclude<keyof NewPatientBody, RequiredPatientField>]?: string;
};

/** What the order form sends. */
export type OrderInput = Omit<ClinicOrderBody, 'collectedAt'> & { collectedAt?: string };

// ---------------------------------------------------------------------------------------------
// Paginated lists: rows plus the x-total-count header
// ---------------------------------------------------------------------------------------------

function usePage<T>(path: string | null, errorHeading: string) {
  return useApiPage<T>(path, { errorHeading });
}

const query = queryString;

/** The SWR key of a patient search (not a path: the search is a POST, its terms travel in the body). */
type PatientSearchKey = readonly ['patient-search', number, string, number, number];
const isPatientSearchOf = (accountId: number, key: unknown) => Array.isArray(key) && key[0] === 'patient-search' && key[1] === accountId;

/** After a command: every cached read of this account's clinic data is stale (its patient searches too). */
export function useRefreshClinic(accountId: number) {
  const refreshPaths = useRefreshApi(clinicApiPath(accountId, ''));
  const { mutate } = useSWRConfig();
  return () => Promise.all([refreshPaths(), mutate((key) => isPatientSearchOf(accountId, key))]);
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/**
 * The physicians the signed-in person may order for in the account: a Physician themself, Support
 * Staff the physicians they are linked to, a Super Admin all of the account's (the caller's own
 * physician record marked isCaller).
 */
export const useOrderingPhysicians = (accountId: number) =>
  useApiQuery<PhysicianOption[]>(clinicApiPath(accountId, 'get-physicians-by-contact'), { errorHeading: 'Error retrieving physicians' });

/** Every physician of the account (the lists' physician filter). */
export const useAccountPhysicians = (accountId: number) =>
  useApiQuery<PhysicianOption[]>(clinicApiPath(accountId, 'physicians'), { errorHeading: 'Error retrieving physicians' });

export const useClinicCatalogue = (accountId: number) =>
  useApiQuery<CatalogueOption[]>(clinicApiPath(accountId, 'tests/catalogue'), { errorHeading: 'Error retrieving tests' });

export const PATIENT_SEARCH_MIN_LENGTH = 2;
export const PATIENT_SEARCH_PAGE_SIZE = 20;

/**
 * Patients of the account matching `q` (at least PATIENT_SEARCH_MIN_LENGTH characters), read with
 * a POST; the previous answer stays on screen while the next loads.
 */
export function usePatientSearch(accountId: number, q: string, page = 1, pageSize = PATIENT_SEARCH_PAGE_SIZE) {
  const trimmed = q.trim();
  const key: PatientSearchKey | null = trimmed.length >= PATIENT_SEARCH_MIN_LENGTH ? ['patient-search', accountId, trimmed, page, pageSize] : null;
  return useSWR<PatientSearchAnswer, ApiError, PatientSearchKey | null>(
    key,
    ([, id, text, p, size]: PatientSearchKey) =>
      apiFetch<PatientSearchAnswer>(clinicApiPath(id, 'patient/search'), { method: 'POST', body: { q: text, page: p, pageSize: size } satisfies PatientSearchBody }),
    withErrorHeading({ keepPreviousData: true, errorHeading: 'Error retrieving patients' }),
  );
}

/**
 * A patient of the account. A page that shows its own not-found (none such, or another account's
 * patient) names 404 in `quietStatuses`: that failure then opens no error modal.
 */
export const usePatientDetail = (accountId: number, patientId: number | null, { quietStatuses }: { quietStatuses?: readonly number[] } = {}) =>
  useApiQuery<PatientDetail>(patientId ? clinicApiPath(accountId, `patient/${patientId}`) : null, {
    errorHeading: 'Error retrieving patient details',
    quietStatuses,
  });

export interface ListParams {
  page: number;
  pageSize: number;
  sort?: ResultListSortField;
  order?: 'asc' | 'desc';
  /** Tests by physician: only this ordering physician's. */
  physicianId?: number | null;
}

export const RESULT_LIST_ERROR: Record<ResultListCategory, string> = {
  PENDING: 'Error retrieving pending tests',
  COMPLETED: 'Error retrieving completed tests',
  PATIENT_ORDERED: 'Error retrieving patient-ordered tests',
  PENDING_SHIPMENT_FROM_PROVIDER: 'Error retrieving pending tests',
};

/** One page of a result list (`enabled` false: not read, while the list is searched instead). */
export const useResultList = (accountId: number, category: ResultListCategory, params: ListParams, enabled = true) =>
  usePage<ResultListRow>(enabled ? clinicApiPath(accountId, `tests?${query({ category, ...params })}`) : null, RESULT_LIST_ERROR[category]);

export const useUnshippedSamples = (accountId: number, params: { page: number; pageSize: number }) =>
  usePage<SampleRow>(clinicApiPath(accountId, `samples?${query({ unshipped: true, ...params })}`), 'Error retrieving unshipped samples');

export const useShipments = (accountId: number, params: { page: number; pageSize: number }) =>
  usePage<ShipmentView>(clinicApiPath(accountId, `shipments?${query(params)}`), 'Error retrieving shipments');

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

export const checkPatientExists = (accountId: number, who: PatientExistsBody) =>
  apiFetch<PatientExistsAnswer>(clinicApiPath(accountId, 'patient/exists'), { method: 'POST', body: who });

type PatientExistsKey = readonly ['patient-exists', number, string, string, string];

/**
 * Whether the account has a patient of this name and date of birth (a POST: the terms stay out of
 * URLs); null asks nothing. A 400 (a name the server refuses) is the form's to show when it is sent.
 */
export function usePatientExists(accountId: number, who: PatientExistsBody | null) {
  const key: PatientExistsKey | null = who ? ['patient-exists', accountId, who.firstName, who.lastName, who.dateOfBirth] : null;
  return useSWR<PatientExistsAnswer, ApiError, PatientExistsKey | null>(
    key,
    ([, id, firstName, lastName, dateOfBirth]: PatientExistsKey) => checkPatientExists(id, { firstName, lastName, dateOfBirth }),
    withErrorHeading({ dedupingInterval: 0, revalidateOnFocus: false, errorHeading: 'Error checking if patient exists', quietStatuses: [400] }),
  );
}

export const createPatient = (accountId: number, body: NewPatientInput) =>
  apiFetch<PatientSummary>(clinicApiPath(accountId, 'patient'), { method: 'POST', body });

export const placeOrder = (accountId: number, body: OrderInput) =>
  apiFetch<CreatedOrder>(clinicApiPath(accountId, 'order'), { method: 'POST', body });

export const createShipment = (accountId: number, sampleIds: number[]) =>
  apiFetch<ShipmentView>(clinicApiPath(accountId, 'shipments/create'), { method: 'POST', body: { sampleIds } });

const requisitionFormPath = (barcode: string) => `/sample/${encodeURIComponent(barcode)}/pdf_order`;

const POLL_MS = 1500;
const POLL_LIMIT_MS = 90_000;

/**
 * The requisition form PDF: asked for again while the worker is still rendering it (409
 * not_ready), up to a minute and a half; any other failure is thrown as an ApiError.
 */
export async function fetchRequisitionForm(barcode: string, signal?: AbortSignal): Promise<Blob> {
  const deadline = Date.now() + POLL_LIMIT_MS;
  for (;;) {
    try {
      const { blob } = await apiDownload(requisitionFormPath(barcode), { fallbackName: `test-requisition-${barcode}.pdf`, signal });
      return blob;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'not_ready' || Date.now() > deadline) throw error;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      }, { once: true });
    });
  }
}

export { saveFile } from './fetcher';

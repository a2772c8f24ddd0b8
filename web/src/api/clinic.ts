/**
 * The Clinical Portal's endpoints (/api/provider-clinic/{accountId}/…, /api/sample/{barcode}/pdf_order):
 * one SWR hook per resource, the commands, paginated lists that read x-total-count, and the
 * requisition form download (polled while the worker renders it).
 */
import useSWR, { useSWRConfig } from 'swr';
import type {
  Attestations, PatientSex, ResultListCategory, ResultListSortField, SampleType, ShippingRate, TestName,
} from '@platform/domain';
import { API_PREFIX, ApiError, apiFetch } from './fetcher';
import { reportQueryError, useApiQuery } from './query';

export const clinicApiPath = (accountId: number, path: string) => `/provider-clinic/${accountId}/${path}`;

// ---------------------------------------------------------------------------------------------
// Shapes the API answers
// ---------------------------------------------------------------------------------------------

export interface PatientSummary {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: string | null;
  email: string | null;
  phone: string | null;
}

export interface TimelineEntry {
  id: number;
  at: string;
  from: string | null;
  to: string;
  reason: string | null;
  actor: { kind: string; name: string };
}

export interface PatientSample {
  id: number;
  barcode: string;
  status: string;
  sampleType: string | null;
  rejectionReason: string | null;
  orderNumber: string;
  origin: string;
  orderedAt: string;
  physician: { id: number; name: string; npi: string | null } | null;
  tests: { id: number; name: string; status: string }[];
  timeline: TimelineEntry[];
  documents: { requisitionForm: boolean; labReport: boolean };
}

export interface PatientDetail {
  patient: PatientSummary & {
    addressLine1: string | null;
    addressLine2: string | null;
    city: string | null;
    state: string | null;
    postalCode: string | null;
    country: string | null;
    medicalRecordNumber: string | null;
    createdAt: string;
  };
  samples: PatientSample[];
}

export interface PhysicianOption {
  id: number;
  firstName: string;
  lastName: string;
  name: string;
  npi: string | null;
  specialty: string | null;
}

export interface CatalogueOption {
  name: TestName;
  parentType: string | null;
  research: boolean;
}

export interface ResultListRow {
  sampleId: number;
  barcode: string;
  status: string;
  statusBeforeStorage: string | null;
  rejectionReason: string | null;
  sampleType: string | null;
  tests: string[];
  orderId: number;
  orderNumber: string;
  origin: string;
  orderedAt: string;
  resultedAt: string | null;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  physician: { id: number; name: string } | null;
  reportAvailable: boolean;
}

export interface SampleRow {
  sampleId: number;
  barcode: string;
  status: string;
  sampleType: string | null;
  tests: string[];
  orderNumber: string;
  orderedAt: string;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  physician: { id: number; name: string } | null;
  requisitionForm: boolean;
  shipment: { id: number; externalOrderId: string | null; status: string } | null;
}

export interface ShipmentView {
  id: number;
  externalOrderId: string | null;
  status: string;
  carrier: string | null;
  trackingNumber: string | null;
  rateCents: number | null;
  shippedAt: string | null;
  createdAt: string;
  createdBy: string | null;
  samples: { id: number; barcode: string; status: string }[];
  documents: number;
}

export interface CreatedOrder {
  order: { id: number; orderNumber: string; createdAt: string; origin: string; portal: string };
  sample: { id: number; barcode: string; status: string; sampleType: string };
  tests: { id: number; name: string }[];
  patientId: number;
  physicianId: number;
  requisitionForm: { url: string; jobId: number };
}

export interface NewPatientInput {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientSex;
  email?: string;
  phone?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  medicalRecordNumber?: string;
}

export interface OrderInput {
  patientId: number;
  tests: TestName[];
  physicianId: number;
  sampleType: SampleType;
  attestations: Attestations;
}

export type { ShippingRate };

// ---------------------------------------------------------------------------------------------
// Paginated lists: rows plus the x-total-count header
// ---------------------------------------------------------------------------------------------

export interface Page<T> {
  rows: T[];
  total: number;
}

/** GETs a list endpoint; the total comes from x-total-count. Errors have the fetcher's shape. */
async function fetchPage<T>(path: string): Promise<Page<T>> {
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${path}`, { headers: { accept: 'application/json' }, credentials: 'include' });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server.');
  }
  if (!response.ok) throw await errorOf(response);
  const rows = (await response.json()) as T[];
  const total = Number(response.headers.get('x-total-count'));
  return { rows, total: Number.isFinite(total) ? total : rows.length };
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: { error?: { code?: string; message?: string; fields?: { field: string; message: string }[] }; requestId?: string } = {};
  try {
    body = await response.json();
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiError(response.status, body.error?.code ?? 'http_error', body.error?.message ?? response.statusText ?? '', body.error?.fields ?? [], body.requestId);
}

const PAGE_KEY = 'clinic-page';

function usePage<T>(path: string | null, errorHeading: string) {
  return useSWR<Page<T>, ApiError>(path ? [PAGE_KEY, path] : null, ([, p]: [string, string]) => fetchPage<T>(p), {
    keepPreviousData: true,
    onError: (error) => reportQueryError(error, errorHeading),
  });
}

const query = (params: Record<string, string | number | boolean | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();

/** After a command: every cached read of this account's clinic data is stale. */
export function useRefreshClinic(accountId: number) {
  const { mutate } = useSWRConfig();
  const prefix = clinicApiPath(accountId, '');
  return () =>
    mutate((key) => {
      const path = Array.isArray(key) ? key[1] : key;
      return typeof path === 'string' && path.startsWith(prefix);
    });
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

export const usePhysicians = (accountId: number) =>
  useApiQuery<PhysicianOption[]>(clinicApiPath(accountId, 'physicians'), { errorHeading: 'Error retrieving physicians' });

export const useClinicCatalogue = (accountId: number) =>
  useApiQuery<CatalogueOption[]>(clinicApiPath(accountId, 'tests/catalogue'), { errorHeading: 'Error retrieving tests' });

export const PATIENT_SEARCH_MIN_LENGTH = 2;

export function usePatientSearch(accountId: number, q: string) {
  const trimmed = q.trim();
  return usePage<PatientSummary>(
    trimmed.length >= PATIENT_SEARCH_MIN_LENGTH ? clinicApiPath(accountId, `patient/search?${query({ q: trimmed, pageSize: 20 })}`) : null,
    'Error retrieving patients',
  );
}

export const usePatientDetail = (accountId: number, patientId: number | null) =>
  useApiQuery<PatientDetail>(patientId ? clinicApiPath(accountId, `patient/${patientId}`) : null, { errorHeading: 'Error retrieving patient details' });

export interface ListParams {
  page: number;
  pageSize: number;
  sort?: ResultListSortField;
  order?: 'asc' | 'desc';
}

export const RESULT_LIST_ERROR: Record<ResultListCategory, string> = {
  PENDING: 'Error retrieving pending tests',
  COMPLETED: 'Error retrieving completed tests',
  PATIENT_ORDERED: 'Error retrieving patient-ordered tests',
  PENDING_SHIPMENT_FROM_PROVIDER: 'Error retrieving pending tests',
};

export const useResultList = (accountId: number, category: ResultListCategory, params: ListParams) =>
  usePage<ResultListRow>(clinicApiPath(accountId, `tests?${query({ category, ...params })}`), RESULT_LIST_ERROR[category]);

export const useUnshippedSamples = (accountId: number, params: { page: number; pageSize: number }) =>
  usePage<SampleRow>(clinicApiPath(accountId, `samples?${query({ unshipped: true, ...params })}`), 'Error retrieving unshipped samples');

export const useShipments = (accountId: number, params: { page: number; pageSize: number }) =>
  usePage<ShipmentView>(clinicApiPath(accountId, `shipments?${query(params)}`), 'Error retrieving shipments');

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

export const checkPatientExists = (accountId: number, who: { firstName: string; lastName: string; dateOfBirth: string }) =>
  apiFetch<{ exists: boolean; patientId?: number }>(clinicApiPath(accountId, `patient/exists?${query(who)}`));

export const createPatient = (accountId: number, body: NewPatientInput) =>
  apiFetch<PatientSummary>(clinicApiPath(accountId, 'patient'), { method: 'POST', body });

export const placeOrder = (accountId: number, body: OrderInput) =>
  apiFetch<CreatedOrder>(clinicApiPath(accountId, 'order'), { method: 'POST', body });

export const createShipment = (accountId: number, sampleIds: number[]) =>
  apiFetch<ShipmentView>(clinicApiPath(accountId, 'shipments/create'), { method: 'POST', body: { sampleIds } });

export const requisitionFormUrl = (barcode: string) => `${API_PREFIX}/sample/${encodeURIComponent(barcode)}/pdf_order`;

const POLL_MS = 1500;
const POLL_LIMIT_MS = 90_000;

/**
 * The requisition form PDF: asked for again while the worker is still rendering it (409
 * not_ready), up to a minute and a half; any other failure is thrown as an ApiError.
 */
export async function fetchRequisitionForm(barcode: string, signal?: AbortSignal): Promise<Blob> {
  const deadline = Date.now() + POLL_LIMIT_MS;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(requisitionFormUrl(barcode), { credentials: 'include', signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, 'network_error', 'Could not reach the server.');
    }
    if (response.ok) return response.blob();
    const error = await errorOf(response);
    if (error.status !== 409 || error.code !== 'not_ready' || Date.now() > deadline) throw error;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      }, { once: true });
    });
  }
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

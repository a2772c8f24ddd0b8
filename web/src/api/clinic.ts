/**
 * The Clinical Portal's endpoints (/api/provider-clinic/{accountId}/…, /api/sample/{barcode}/pdf_order):
 * one SWR hook per resource, the commands, paginated lists that read x-total-count, and the
 * requisition form download (polled while the worker renders it).
 */
import type {
  Attestations, PatientSex, ResultListCategory, ResultListSortField, SampleType, ShippingRate, TestName,
} from '@platform/domain';
import { ApiError, apiDownload, apiFetch, queryString } from './fetcher';
import { useApiPage, useApiQuery, useRefreshApi } from './query';

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

function usePage<T>(path: string | null, errorHeading: string) {
  return useApiPage<T>(path, { errorHeading });
}

const query = queryString;

/** After a command: every cached read of this account's clinic data is stale. */
export const useRefreshClinic = (accountId: number) => useRefreshApi(clinicApiPath(accountId, ''));

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

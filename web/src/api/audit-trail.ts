/**
 * The audit trail (issue 29): the lab's admin's (/admin/audit-trail) or an account's Super Admin's
 * (/provider-clinic/{accountId}/audit-trail). `base` is one of the two; the server enforces the scope.
 */
import type { AuditExportView, AuditPatientOption, AuditTrailFilters, AuditTrailPage, AuditVerificationView } from '@platform/domain';
import { API_PREFIX, apiFetch } from './fetcher';
import { useApiQuery } from './query';

export type { AuditExportView, AuditPatientOption, AuditTrailFilters, AuditTrailPage, AuditVerificationView };

export const ADMIN_AUDIT_TRAIL_API = '/admin/audit-trail';
export const clinicAuditTrailApi = (accountId: number) => `/provider-clinic/${accountId}/audit-trail`;

/** The filters as a query string (only those given). */
export function auditQueryString(filters: Partial<AuditTrailFilters> & { before?: number | null }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const useAuditTrail = (base: string, filters: Partial<AuditTrailFilters>, before: number | null) =>
  useApiQuery<AuditTrailPage>(`${base}${auditQueryString({ ...filters, before })}`, { errorHeading: 'Error retrieving the audit trail', quietStatuses: [400, 404] });

/** The CSV's address (a plain download link: the browser streams it to a file). */
export const auditCsvHref = (base: string, filters: Partial<AuditTrailFilters>) => `${API_PREFIX}${base}/export.csv${auditQueryString(filters)}`;

export const requestAuditPdf = (base: string, filters: AuditTrailFilters) => apiFetch<AuditExportView>(`${base}/exports`, { method: 'POST', body: filters });
export const getAuditExport = (base: string, jobId: number) => apiFetch<AuditExportView>(`${base}/exports/${jobId}`);
export const verifyAuditTrail = (base: string) => apiFetch<AuditVerificationView>(`${base}/verify`, { method: 'POST' });
export const searchAuditPatients = (base: string, q: string) => apiFetch<AuditPatientOption[]>(`${base}/patients/search`, { method: 'POST', body: { q } });

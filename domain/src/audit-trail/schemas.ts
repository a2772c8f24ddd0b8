/** What the audit trail's routes accept: the filters (a query string), a page, an export request. */
import Joi from 'joi';
import { AUDIT_TRAIL_MAX_PAGE_SIZE, AUDIT_TRAIL_PAGE_SIZE, type AuditTrailFilters } from './audit-trail';

const STRICT_KEYS = { allowUnknown: false } as const;
const optional = (schema: Joi.Schema) => schema.allow('', null).empty(['', null]).default(null);

const filterFields = {
  patientId: optional(Joi.number().integer().positive().label('Patient')),
  barcode: optional(Joi.string().trim().max(40).pattern(/^[A-Za-z0-9-]+$/, 'barcode').label('Sample barcode')
    .messages({ 'string.pattern.name': '{#label} may contain letters, digits and hyphens only' })),
  user: optional(Joi.string().trim().lowercase().max(254).email({ tlds: false }).label('User')),
  action: optional(Joi.string().trim().max(80).pattern(/^[a-z0-9_.]+$/, 'action').label('Action')
    .messages({ 'string.pattern.name': '{#label} may contain lower-case letters, digits, dots and underscores only' })),
  from: optional(Joi.string().trim().isoDate().label('From')),
  to: optional(Joi.string().trim().isoDate().label('To')),
};

export interface AuditTrailQuery extends AuditTrailFilters {
  /** Keyset paging: events with an id below this one (the previous page's last id). */
  before: number | null;
  limit: number;
}

/** GET …/audit-trail?patientId=&barcode=&user=&action=&from=&to=&before=&limit= */
export const auditTrailQuery = Joi.object<AuditTrailQuery>({
  ...filterFields,
  before: optional(Joi.number().integer().positive().label('Before')),
  limit: Joi.number().integer().min(1).max(AUDIT_TRAIL_MAX_PAGE_SIZE).default(AUDIT_TRAIL_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');

/** GET …/audit-trail/export.csv?<filters> */
export const auditFiltersQuery = Joi.object<AuditTrailFilters>(filterFields).options(STRICT_KEYS).label('Query');

/** The filters alone (a PDF export's job carries them). */
export const auditFiltersSchema = Joi.object<AuditTrailFilters>(filterFields).options(STRICT_KEYS).label('Filters');

/** POST …/audit-trail/exports: a PDF of the filtered trail (rendered by the worker). */
export const auditPdfExportBody = Joi.object<AuditTrailFilters>(filterFields).options(STRICT_KEYS).label('Request body');

/** POST …/audit-trail/patients/search */
export const auditPatientSearchBody = Joi.object<{ q: string }>({
  q: Joi.string().trim().min(1).max(100).label('Search').required(),
}).options(STRICT_KEYS).label('Request body');

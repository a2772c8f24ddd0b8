/** What the audit trail's routes answer: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { JOB_STATUSES } from '../jobs/jobs';

const Change = s.object({ field: s.string, old: s.unknown, new: s.unknown });

/** One event of the trail: who, when, from where, what, and the values it changed. */
export const AuditEventView = s.object({
  id: s.integer,
  at: s.string,
  actorKind: s.string,
  /** The user who acted (null for the system, a patient's link, an API client). */
  actor: s.nullable(s.object({ id: s.integer, name: s.string, email: s.string })),
  ip: s.nullable(s.string),
  action: s.string,
  entityKind: s.nullable(s.string),
  entityId: s.nullable(s.string),
  /** What the entity is called where the trail knows it (a sample's barcode). */
  entityLabel: s.nullable(s.string),
  changes: s.array(Change),
  details: s.dictionary(s.unknown),
  /** Sealed into the hash chain (a row is sealed seconds after it is written). */
  sealed: s.boolean,
});
export type AuditEventView = s.Infer<typeof AuditEventView>;

/** GET …/audit-trail: a page, newest first, and where the next (older) page starts. */
export const AuditTrailPage = s.object({
  events: s.array(AuditEventView),
  /** The `before` of the next page; null on the last. */
  nextBefore: s.nullable(s.integer),
  /** Months (YYYY-MM, UTC, oldest first) archived to files: none of their events is in the trail any more. */
  archivedMonths: s.array(s.string),
});
export type AuditTrailPage = s.Infer<typeof AuditTrailPage>;

/** POST …/audit-trail/verify: whether the chain holds, and where it first breaks. */
export const AuditVerificationView = s.object({
  ok: s.boolean,
  /** Sealed rows checked. */
  checked: s.integer,
  /** Rows not sealed yet (written during the check). */
  unsealed: s.integer,
  headId: s.nullable(s.integer),
  headHash: s.nullable(s.string),
  broken: s.nullable(s.object({ id: s.integer, chainSeq: s.integer, reason: s.string })),
  verifiedAt: s.string,
});
export type AuditVerificationView = s.Infer<typeof AuditVerificationView>;

/** A PDF export of the trail: the worker's job, and its file once rendered. */
export const AuditExportView = s.object({
  id: s.integer,
  status: s.oneOf(JOB_STATUSES),
  error: s.nullable(s.string),
  /** Where to download the PDF (Completed only). */
  downloadPath: s.nullable(s.string),
  events: s.nullable(s.integer),
  createdAt: s.string,
});
export type AuditExportView = s.Infer<typeof AuditExportView>;

/** POST …/audit-trail/patients/search (each): a patient the filter can name. */
export const AuditPatientOption = s.object({
  id: s.integer,
  name: s.string,
  dateOfBirth: s.nullable(s.string),
  accountName: s.nullable(s.string),
});
export type AuditPatientOption = s.Infer<typeof AuditPatientOption>;

/**
 * The audit trail as people read it (issue 29, parts 3 and 4): its filters, its page size, the old
 * and new values an event's details hold, and how often rows are sealed into the hash chain.
 */

/** Events on one page of the trail (newest first). */
export const AUDIT_TRAIL_PAGE_SIZE = 50;
export const AUDIT_TRAIL_MAX_PAGE_SIZE = 200;
/** The most events a PDF export prints (a longer trail: narrow the filters, or export the CSV). */
export const AUDIT_PDF_MAX_EVENTS = 2_000;
/** How often a worker seals new audit rows into the hash chain. */
export const AUDIT_SEAL_INTERVAL_MS = 5_000;
/** The hash the first row of the chain follows (sha256 hex length). */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** Actions of the trail itself (reading, exporting, verifying and archiving it are audited too). */
export const AuditTrailAction = {
  Read: 'audit_trail.read',
  Exported: 'audit_trail.exported',
  Verified: 'audit_trail.verified',
  Archived: 'audit_trail.archived',
} as const;

/**
 * The audit table is partitioned by calendar month (UTC): how many months after the current one
 * always have their partition made ahead (the migration makes them, and every worker's scanner
 * keeps them made every hour), so that no row waits on, or lands outside, its month.
 */
export const AUDIT_MONTHS_AHEAD = 3;
/** How often a worker makes sure the coming months' partitions exist (cheap: a look at the catalogue when they do). */
export const AUDIT_PARTITION_SCAN_INTERVAL_MS = 60 * 60 * 1000;
/** A month of the trail as the archive names it: `YYYY-MM`. */
export const AUDIT_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The filters of the trail (each optional): who, what, which patient or sample, when. */
export interface AuditTrailFilters {
  patientId: number | null;
  barcode: string | null;
  /** The acting user's email. */
  user: string | null;
  /** An action (`sample.viewed`) or its prefix (`sample`: every `sample.…`). */
  action: string | null;
  /** ISO date-times: from inclusive, to exclusive. */
  from: string | null;
  to: string | null;
}

export const NO_AUDIT_FILTERS: AuditTrailFilters = { patientId: null, barcode: null, user: null, action: null, from: null, to: null };

/** One value an event changed: its field, what it was and what it became (either may be absent). */
export interface AuditChange {
  field: string;
  old: unknown;
  new: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field-by-field changes of two values (objects compared key by key; anything else as one value). */
function diff(prefix: string, before: unknown, after: unknown): AuditChange[] {
  if (isObject(before) || isObject(after)) {
    const b = isObject(before) ? before : {};
    const a = isObject(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys
      .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
      .map((k) => ({ field: prefix ? `${prefix}.${k}` : k, old: b[k] ?? null, new: a[k] ?? null }));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ field: prefix || 'value', old: before ?? null, new: after ?? null }];
}

/**
 * The old and new values an event's details hold, in the three shapes the platform writes:
 * `{ old, new }`, `{ before, after }`, and a correction's `changes: [{ field, from, to }]`.
 * Empty when the event changed nothing it recorded (a read, say).
 */
export function auditChanges(details: unknown): AuditChange[] {
  if (!isObject(details)) return [];
  const changes: AuditChange[] = [];
  if ('old' in details || 'new' in details) changes.push(...diff('', details.old, details.new));
  if ('before' in details || 'after' in details) changes.push(...diff('', details.before, details.after));
  if (Array.isArray(details.changes)) {
    for (const c of details.changes) {
      if (isObject(c) && typeof c.field === 'string') changes.push({ field: c.field, old: c.from ?? c.old ?? null, new: c.to ?? c.new ?? null });
    }
  }
  return changes;
}

/** A changed value as text: '—' for none, strings as they are, anything else as JSON. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The changes as one line ("field: old → new; …"), for a CSV cell or a PDF table. */
export function auditChangesText(changes: AuditChange[]): string {
  return changes.map((c) => `${c.field}: ${auditValueText(c.old)} → ${auditValueText(c.new)}`).join('; ');
}

/** The filters in words, for an export's heading ("Sample barcode AB123 · Action sample"). */
export function auditFiltersText(f: AuditTrailFilters): string {
  const parts = [
    f.patientId !== null ? `Patient id ${f.patientId}` : null,
    f.barcode ? `Sample barcode ${f.barcode}` : null,
    f.user ? `User ${f.user}` : null,
    f.action ? `Action ${f.action}` : null,
    f.from ? `From ${f.from}` : null,
    f.to ? `To ${f.to}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(' · ') : 'None (every event)';
}

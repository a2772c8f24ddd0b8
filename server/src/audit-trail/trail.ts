/**
 * The audit trail read, exported and verified (issue 29, parts 3 and 4). The lab's admin reads every
 * event; an account's Super Admin only its account's: events whose entity is the account, one of
 * its users, patients, samples, tests or shipments, or whose details name the account. Each filter
 * that names something (a patient, a barcode, a user) is checked in that scope first: outside it,
 * the same 404 as "no such thing". Reading, exporting and verifying the trail are audited too.
 */
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import {
  auditChanges, AuditTrailAction, AUDIT_PDF_MAX_EVENTS, fullName, JobStatus, UPLOAD_FILE_KIND,
  type AuditEventView, type AuditExportView, type AuditPatientOption, type AuditTrailFilters, type AuditTrailPage, type AuditTrailQuery,
  type AuditVerificationView, type JobPayloads,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller, type UserCaller } from '../audit';
import { NotFound } from '../errors';
import { enqueueJob } from '../jobs';
import { csvCell } from '../imports/imports';
import { findPatients } from '../patients/patient-search';
import { readFileContent } from '../files';
import { sealAuditEvents, verifyAuditChain } from './chain';
import { archivedAuditMonths } from './partitions';

type Ctx = Pick<ServerContext, 'db'>;

/** Whose events: the lab's (every event) or one account's. */
export type AuditScope = { kind: 'lab' } | { kind: 'account'; accountId: number };
export const LAB_AUDIT_SCOPE: AuditScope = { kind: 'lab' };

export const AUDIT_PDF_JOB = 'audit-trail-pdf';

/** An entity id written as text, as a bigint when it is one (never a failed cast). */
const bigintOf = (col: string) => `(CASE WHEN ${col} ~ '^[0-9]{1,18}$' THEN ${col}::bigint END)`;

/** Events of one account (over audit_events `e`; :scopeAccountId). */
const ACCOUNT_SCOPE_SQL = `(
  (e.entity_kind = 'account' AND e.entity_id = CAST(:scopeAccountId AS text))
  OR (e.entity_kind = 'patient' AND e.entity_id IN (SELECT id::text FROM patients WHERE account_id = :scopeAccountId))
  OR (e.entity_kind = 'sample' AND e.entity_id IN (SELECT id::text FROM samples WHERE account_id = :scopeAccountId))
  OR (e.entity_kind = 'test' AND e.entity_id IN (SELECT t.id::text FROM tests t JOIN samples s ON s.id = t.sample_id WHERE s.account_id = :scopeAccountId))
  OR (e.entity_kind = 'shipment' AND e.entity_id IN (SELECT id::text FROM shipments WHERE account_id = :scopeAccountId))
  OR (e.entity_kind = 'user' AND e.entity_id IN (SELECT c.user_id::text FROM account_memberships m JOIN contacts c ON c.id = m.contact_id
                                                   WHERE m.account_id = :scopeAccountId AND c.user_id IS NOT NULL))
  OR e.details->>'accountId' = CAST(:scopeAccountId AS text)
)`;

interface Where { sql: string[]; values: Record<string, unknown> }

const notInTrail = (what: string, field: string) => new NotFound(`${what} not found`, [{ field, message: `${what} not found` }]);

/**
 * The WHERE of the trail for a scope and filters. A patient, barcode or user named by a filter must
 * exist in the scope (404 naming the field otherwise, the same for "not yours").
 */
async function trailWhere(ctx: Ctx, scope: AuditScope, f: AuditTrailFilters, transaction?: Transaction): Promise<Where> {
  const where: Where = { sql: [], values: {} };
  const account = scope.kind === 'account' ? scope.accountId : null;
  if (account !== null) {
    where.sql.push(ACCOUNT_SCOPE_SQL);
    where.values.scopeAccountId = account;
  }
  const one = async <T extends object>(sql: string, replacements: Record<string, unknown>) =>
    (await ctx.db.sequelize.query<T>(sql, { replacements: { ...replacements, account }, type: QueryTypes.SELECT, transaction }))[0];
  if (f.patientId !== null) {
    const patient = await one<{ id: string }>('SELECT id::text AS id FROM patients WHERE id = :id AND (CAST(:account AS bigint) IS NULL OR account_id = :account)', { id: f.patientId });
    if (!patient) throw notInTrail('Patient', 'patientId');
    where.sql.push(`((e.entity_kind = 'patient' AND e.entity_id = :patientText)
      OR (e.entity_kind = 'sample' AND e.entity_id IN (SELECT id::text FROM samples WHERE patient_id = :patientId))
      OR (e.entity_kind = 'test' AND e.entity_id IN (SELECT t.id::text FROM tests t JOIN samples s ON s.id = t.sample_id WHERE s.patient_id = :patientId))
      OR e.details->>'patientId' = :patientText)`);
    Object.assign(where.values, { patientId: f.patientId, patientText: patient.id });
  }
  if (f.barcode !== null) {
    const sample = await one<{ id: string }>('SELECT id::text AS id FROM samples WHERE barcode = :barcode AND (CAST(:account AS bigint) IS NULL OR account_id = :account)', { barcode: f.barcode });
    if (!sample) throw notInTrail('Sample', 'barcode');
    where.sql.push(`((e.entity_kind = 'sample' AND e.entity_id = :sampleText)
      OR (e.entity_kind = 'test' AND e.entity_id IN (SELECT id::text FROM tests WHERE sample_id = :sampleId))
      OR e.details->>'sampleId' = :sampleText)`);
    Object.assign(where.values, { sampleId: Number(sample.id), sampleText: sample.id });
  }
  if (f.user !== null) {
    const user = await one<{ id: string }>(
      `SELECT u.id::text AS id FROM users u WHERE lower(u.email) = lower(:email)
          AND (CAST(:account AS bigint) IS NULL OR EXISTS (SELECT 1 FROM contacts c JOIN account_memberships m ON m.contact_id = c.id WHERE c.user_id = u.id AND m.account_id = :account))`,
      { email: f.user },
    );
    if (!user) throw notInTrail('User', 'user');
    where.sql.push('e.actor_user_id = :actorUserId');
    where.values.actorUserId = Number(user.id);
  }
  if (f.action !== null) {
    // The action itself, or every action under it ("sample" → "sample.viewed", …).
    where.sql.push(`(e.action = :action OR e.action LIKE :actionPrefix)`);
    Object.assign(where.values, { action: f.action, actionPrefix: `${f.action.replaceAll('_', '\\_')}.%` });
  }
  if (f.from !== null) {
    where.sql.push('e.at >= CAST(:from AS timestamptz)');
    where.values.from = f.from;
  }
  if (f.to !== null) {
    where.sql.push('e.at < CAST(:to AS timestamptz)');
    where.values.to = f.to;
  }
  return where;
}

interface EventRow {
  id: string;
  at: Date;
  actor_kind: string;
  actor_user_id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  ip: string | null;
  action: string;
  entity_kind: string | null;
  entity_id: string | null;
  entity_label: string | null;
  details: Record<string, unknown>;
  chain_seq: string | null;
  hash: string | null;
}

/** Events of the trail, newest first, below `before` (keyset paging by id). */
async function readEvents(ctx: Ctx, where: Where, page: { before: number | null; limit: number }, transaction?: Transaction): Promise<EventRow[]> {
  const conditions = [...where.sql, ...(page.before !== null ? ['e.id < :before'] : [])];
  return ctx.db.sequelize.query<EventRow>(
    `SELECT e.id::text AS id, e.at, e.actor_kind, e.actor_user_id::text AS actor_user_id, u.first_name, u.last_name, u.email, e.ip, e.action,
            e.entity_kind, e.entity_id,
            CASE e.entity_kind
              WHEN 'sample' THEN (SELECT s.barcode FROM samples s WHERE s.id = ${bigintOf('e.entity_id')})
              WHEN 'test' THEN (SELECT s.barcode || ' · ' || t.name FROM tests t JOIN samples s ON s.id = t.sample_id WHERE t.id = ${bigintOf('e.entity_id')})
            END AS entity_label,
            e.details, e.chain_seq::text AS chain_seq, e.hash
       FROM audit_events e LEFT JOIN users u ON u.id = e.actor_user_id
      ${conditions.length ? `WHERE ${conditions.join('\n        AND ')}` : ''}
      ORDER BY e.id DESC LIMIT :limit`,
    { replacements: { ...where.values, before: page.before, limit: page.limit }, type: QueryTypes.SELECT, transaction },
  );
}

function viewOf(r: EventRow): AuditEventView {
  const details = r.details ?? {};
  return {
    id: Number(r.id),
    at: r.at.toISOString(),
    actorKind: r.actor_kind,
    actor: r.actor_user_id !== null
      ? { id: Number(r.actor_user_id), name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || 'Unknown user', email: r.email ?? '' }
      : null,
    ip: r.ip,
    action: r.action,
    entityKind: r.entity_kind,
    entityId: r.entity_id,
    entityLabel: r.entity_label,
    changes: auditChanges(details),
    details,
    sealed: r.chain_seq !== null,
  };
}

/** The filters as the audit row of a read or an export records them (no patient data: ids, a barcode, an email, times). */
const filtersDetail = (f: AuditTrailFilters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null));
const scopeDetail = (scope: AuditScope) => ({ scope: scope.kind, accountId: scope.kind === 'account' ? scope.accountId : null });

/** GET …/audit-trail: a page of the trail, newest first; audited `audit_trail.read` with the filters. */
export async function listAuditTrail(ctx: Ctx, caller: Caller, scope: AuditScope, query: AuditTrailQuery): Promise<AuditTrailPage> {
  const { before, limit, ...filters } = query;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const where = await trailWhere(ctx, scope, filters, transaction);
    const rows = await readEvents(ctx, where, { before, limit: limit + 1 }, transaction);
    const events = rows.slice(0, limit).map(viewOf);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: AuditTrailAction.Read,
      details: { ...scopeDetail(scope), filters: filtersDetail(filters), before, events: events.length },
    }, transaction);
    // Months archived are gone from the table: the page says which (a filter reaching into one finds nothing there).
    return { events, nextBefore: rows.length > limit ? events[events.length - 1].id : null, archivedMonths: await archivedAuditMonths(ctx.db, transaction) };
  });
}

/** Every event of the trail the filters select (up to `max`), newest first, for an export. */
export async function* auditTrailEvents(ctx: Ctx, scope: AuditScope, filters: AuditTrailFilters, max = Number.POSITIVE_INFINITY): AsyncGenerator<AuditEventView & { hash: string | null }> {
  const where = await trailWhere(ctx, scope, filters);
  let before: number | null = null;
  let count = 0;
  for (;;) {
    const rows = await readEvents(ctx, where, { before, limit: Math.min(1_000, max - count) });
    for (const r of rows) yield { ...viewOf(r), hash: r.hash };
    count += rows.length;
    if (rows.length < 1_000 || count >= max) return;
    before = Number(rows[rows.length - 1].id);
  }
}

/** How many events the filters select (an export says when it printed fewer). */
export async function countAuditTrail(ctx: Ctx, scope: AuditScope, filters: AuditTrailFilters): Promise<number> {
  const where = await trailWhere(ctx, scope, filters);
  const [{ n }] = await ctx.db.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_events e ${where.sql.length ? `WHERE ${where.sql.join(' AND ')}` : ''}`,
    { replacements: where.values, type: QueryTypes.SELECT },
  );
  return n;
}

export const AUDIT_CSV_HEADER = ['id', 'at', 'actor_name', 'actor_email', 'actor_kind', 'ip', 'action', 'entity_kind', 'entity_id', 'entity', 'changes', 'details', 'hash'];

const changeText = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * GET …/audit-trail/export.csv: the filtered trail as CSV, streamed (a header row, then each event,
 * newest first; every cell quoted where needed and never read as a formula). The filters are
 * checked and the export audited (`audit_trail.exported`) before the first byte.
 */
export async function exportAuditCsv(ctx: Ctx, caller: Caller, scope: AuditScope, filters: AuditTrailFilters): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
  await ctx.db.sequelize.transaction(async (transaction) => {
    await trailWhere(ctx, scope, filters, transaction);
    await recordAudit(ctx.db, { ...auditActor(caller), action: AuditTrailAction.Exported, details: { ...scopeDetail(scope), format: 'csv', filters: filtersDetail(filters) } }, transaction);
  });
  async function* lines(): AsyncGenerator<string> {
    yield `${AUDIT_CSV_HEADER.join(',')}\r\n`;
    for await (const e of auditTrailEvents(ctx, scope, filters)) {
      const changes = e.changes.map((c) => `${c.field}: ${changeText(c.old)} -> ${changeText(c.new)}`).join('; ');
      yield `${[e.id, e.at, e.actor?.name ?? '', e.actor?.email ?? '', e.actorKind, e.ip ?? '', e.action, e.entityKind ?? '', e.entityId ?? '', e.entityLabel ?? '', changes, JSON.stringify(e.details), e.hash ?? ''].map(csvCell).join(',')}\r\n`;
    }
  }
  return { fileName: `audit-trail-${new Date().toISOString().slice(0, 10)}.csv`, lines: lines() };
}

type JobRow = InstanceType<ServerContext['db']['models']['Job']>;
type AuditPdfPayload = JobPayloads['audit-trail-pdf'];

const exportPathOf = (scope: AuditScope) => (scope.kind === 'lab' ? '/admin/audit-trail' : `/provider-clinic/${scope.accountId}/audit-trail`);

function exportView(job: JobRow, scope: AuditScope): AuditExportView {
  const result = job.result as { fileId?: number; events?: number } | null;
  const done = job.status === JobStatus.Completed && result?.fileId;
  return {
    id: job.id,
    status: job.status,
    error: job.status === JobStatus.Failed ? 'The PDF could not be made. Try again.' : null,
    downloadPath: done ? `${exportPathOf(scope)}/exports/${job.id}/file` : null,
    events: result?.events ?? null,
    createdAt: job.createdAt.toISOString(),
  };
}

/**
 * POST …/audit-trail/exports: a PDF of the filtered trail, made by the worker (the API never loads
 * the PDF library). Answers the job to poll; audited `audit_trail.exported` with the filters.
 */
export async function requestAuditPdf(ctx: Pick<ServerContext, 'db' | 'relay'>, caller: UserCaller, scope: AuditScope, filters: AuditTrailFilters): Promise<AuditExportView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    await trailWhere(ctx, scope, filters, transaction);
    const payload: AuditPdfPayload = { filters, accountId: scope.kind === 'account' ? scope.accountId : null, userId: caller.userId };
    const { jobRowId } = await enqueueJob(ctx, transaction, AUDIT_PDF_JOB, payload, { idempotencyKey: `${AUDIT_PDF_JOB}:${randomUUID()}`, createdByUserId: caller.userId });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: AuditTrailAction.Exported, entityKind: 'job', entityId: jobRowId,
      details: { ...scopeDetail(scope), format: 'pdf', filters: filtersDetail(filters), jobId: jobRowId },
    }, transaction);
    const job = await ctx.db.models.Job.findByPk(jobRowId, { transaction, rejectOnEmpty: true });
    return exportView(job, scope);
  });
}

/** The caller's own PDF export in this scope (anyone else's, or another scope's: 404). */
async function ownExport(ctx: Ctx, caller: UserCaller, scope: AuditScope, jobId: number): Promise<JobRow> {
  const job = await ctx.db.models.Job.findOne({ where: { id: jobId, name: AUDIT_PDF_JOB, createdByUserId: caller.userId } });
  const payload = job?.payload as AuditPdfPayload | undefined;
  if (!job || payload?.accountId !== (scope.kind === 'account' ? scope.accountId : null)) throw new NotFound('Export not found');
  return job;
}

/** GET …/audit-trail/exports/{jobId}: where the PDF stands. */
export async function getAuditExport(ctx: Ctx, caller: UserCaller, scope: AuditScope, jobId: number): Promise<AuditExportView> {
  return exportView(await ownExport(ctx, caller, scope, jobId), scope);
}

/** GET …/audit-trail/exports/{jobId}/file: the PDF. */
export async function auditExportFile(ctx: Ctx, caller: UserCaller, scope: AuditScope, jobId: number): Promise<{ name: string; content: Buffer }> {
  const job = await ownExport(ctx, caller, scope, jobId);
  const fileId = (job.result as { fileId?: number } | null)?.fileId;
  const file = job.status === JobStatus.Completed && fileId ? await readFileContent(ctx.db, fileId) : null;
  if (!file) throw new NotFound('The PDF is not ready');
  return { name: file.name, content: file.content };
}

/** The file kind a PDF export is stored under (a file the platform made for a user, like an upload it keeps). */
export const AUDIT_EXPORT_FILE_KIND = UPLOAD_FILE_KIND;
export const auditExportFileName = (jobRowId: number) => `audit-trail-${jobRowId}.pdf`;

/** What the worker prints on a PDF export: who asked, in which scope, the events (up to AUDIT_PDF_MAX_EVENTS) and how many there are. */
export async function auditPdfContent(ctx: Ctx, payload: AuditPdfPayload): Promise<{
  requestedBy: { name: string; email: string } | null;
  accountName: string | null;
  events: AuditEventView[];
  total: number;
}> {
  const scope: AuditScope = payload.accountId === null ? LAB_AUDIT_SCOPE : { kind: 'account', accountId: payload.accountId };
  const user = await ctx.db.models.User.findByPk(payload.userId, { attributes: ['firstName', 'lastName', 'email'] });
  const account = payload.accountId === null ? null : await ctx.db.models.Account.findByPk(payload.accountId, { attributes: ['name'] });
  const events: AuditEventView[] = [];
  for await (const e of auditTrailEvents(ctx, scope, payload.filters, AUDIT_PDF_MAX_EVENTS)) events.push(e);
  const total = events.length < AUDIT_PDF_MAX_EVENTS ? events.length : await countAuditTrail(ctx, scope, payload.filters);
  return { requestedBy: user ? { name: fullName(user), email: user.email } : null, accountName: account?.name ?? null, events, total };
}

/**
 * POST admin/audit-trail/verify: seals what waits, then checks the whole chain; audited
 * `audit_trail.verified` with the outcome.
 */
export async function verifyAuditTrail(ctx: Ctx, caller: Caller): Promise<AuditVerificationView> {
  await sealAuditEvents(ctx.db, { wait: true });
  const check = await verifyAuditChain(ctx.db);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: AuditTrailAction.Verified,
    details: { ok: check.ok, checked: check.checked, headId: check.head?.id ?? null, headHash: check.head?.hash ?? null, brokenId: check.broken?.id ?? null },
  });
  return {
    ok: check.ok, checked: check.checked, unsealed: check.unsealed, headId: check.head?.id ?? null, headHash: check.head?.hash ?? null,
    broken: check.broken, verifiedAt: new Date().toISOString(),
  };
}

/** POST …/audit-trail/patients/search: patients the filter can name, in the scope (the search is audited as every patient search is). */
export async function searchAuditPatients(ctx: Ctx, caller: Caller, scope: AuditScope, q: string): Promise<AuditPatientOption[]> {
  const found = await findPatients(ctx, caller, scope.kind === 'lab' ? 'all-accounts' : { accountId: scope.accountId }, { q, page: 1, pageSize: 20 });
  return found.rows.map((p) => ({ id: p.id, name: `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || `Patient ${p.id}`, dateOfBirth: p.dateOfBirth, accountName: p.account?.name ?? null }));
}

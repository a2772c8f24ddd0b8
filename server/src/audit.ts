import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { AuditActorKind, EntityKind } from '@platform/domain';

/** Who asked for a command: the user (none for the system or a patient's link), their account, and the request. */
export interface Caller {
  userId: number | null;
  kind: `${AuditActorKind}`;
  /** The account of the URL, already checked against the user's memberships; null outside an account. */
  accountId: number | null;
  ip: string | null;
  requestId: string | null;
  /** An account's API client acting (kind 'api_client'): its public client id, recorded in each audit row's details. */
  apiClientId?: string;
}

/** The platform itself (a job, a webhook): no user, no address. */
/** A caller inside an account of the URL (the api checked the account is theirs). */
export type AccountCaller = Caller & { userId: number; accountId: number };
/** A signed-in user's caller (Lab Toolbox commands and others outside an account). */
export type UserCaller = Caller & { userId: number };

export const systemCaller = (requestId: string | null = null): Caller => ({ userId: null, kind: 'system', accountId: null, ip: null, requestId });

/** The same request, acting as a known user (the one who just signed in, or whose reset link was used). */
export const callerAs = (caller: Caller, user: { id: number; kind: Caller['kind'] }): Caller => ({ ...caller, userId: user.id, kind: user.kind });

export interface AuditEntry {
  actorUserId?: number | null;
  actorKind: `${AuditActorKind}`;
  action: string;
  entityKind?: EntityKind | 'user' | 'account' | 'email' | 'email_campaign' | 'job' | 'research_project' | null;
  entityId?: string | number | null;
  ip?: string | null;
  requestId?: string | null;
  /** Never patient names, dates of birth or results: ids and outcomes only. */
  details?: Record<string, unknown>;
  /** The API client that acted (kind 'api_client'): written into details as `apiClientId`. */
  actorApiClientId?: string | null;
}

/** The actor fields of an audit entry, from the caller: the one way an audit row names who did it. */
export function auditActor(caller: Caller): Pick<AuditEntry, 'actorUserId' | 'actorKind' | 'ip' | 'requestId' | 'actorApiClientId'> {
  return { actorUserId: caller.userId, actorKind: caller.kind, ip: caller.ip, requestId: caller.requestId, actorApiClientId: caller.apiClientId ?? null };
}

const AUDIT_COLUMNS = 'actor_user_id, actor_kind, action, entity_kind, entity_id, ip, request_id, details';

/** An entry's values as replacements named `${prefix}…` (its details as JSON text). */
function auditValues(entry: AuditEntry, prefix: string): Record<string, unknown> {
  return {
    [`${prefix}actorUserId`]: entry.actorUserId ?? null,
    [`${prefix}actorKind`]: entry.actorKind,
    [`${prefix}action`]: entry.action,
    [`${prefix}entityKind`]: entry.entityKind ?? null,
    [`${prefix}entityId`]: entry.entityId == null ? null : String(entry.entityId),
    [`${prefix}ip`]: entry.ip ?? null,
    [`${prefix}requestId`]: entry.requestId ?? null,
    [`${prefix}details`]: JSON.stringify(entry.actorApiClientId ? { ...entry.details, apiClientId: entry.actorApiClientId } : entry.details ?? {}),
  };
}

/** The VALUES of one audit row, its details merged with `moreDetailsSql` (a jsonb expression) when given. */
function auditRowSql(prefix: string, moreDetailsSql?: string): string {
  const details = `CAST(:${prefix}details AS jsonb)${moreDetailsSql ? ` || ${moreDetailsSql}` : ''}`;
  // Typed: as parameters of a prepared INSERT … SELECT, PostgreSQL cannot infer them from the columns.
  const text = (name: string) => `CAST(:${prefix}${name} AS text)`;
  return `CAST(:${prefix}actorUserId AS bigint), ${['actorKind', 'action', 'entityKind', 'entityId', 'ip', 'requestId'].map(text).join(', ')}, ${details}`;
}

/**
 * Appends to the audit table (append-only: the database refuses updates and deletes). One plain
 * INSERT without RETURNING: every list a user pages through writes one, so it is kept cheap.
 */
export async function recordAudit(db: Db, entry: AuditEntry, transaction?: Transaction): Promise<void> {
  await db.sequelize.query(`INSERT INTO audit_events (${AUDIT_COLUMNS}) VALUES (${auditRowSql('')})`, {
    replacements: auditValues(entry, ''),
    type: QueryTypes.INSERT,
    transaction,
  });
}

/**
 * The audit row of a read as an `INSERT … SELECT` for a data-modifying CTE of the read's own
 * statement: PostgreSQL runs it exactly once, in the statement's transaction, so the answer never
 * exists without its row (and one round trip does both). `moreDetailsSql` is a jsonb expression
 * over the statement's other CTEs (the page's ids, the total) merged into the entry's details;
 * `fromSql` what it selects from (`FROM …`) or '' for none.
 */
export function auditInsertSql(entry: AuditEntry, moreDetailsSql: string, fromSql = ''): { sql: string; replacements: Record<string, unknown> } {
  const prefix = 'audit_';
  return {
    sql: `INSERT INTO audit_events (${AUDIT_COLUMNS}) SELECT ${auditRowSql(prefix, moreDetailsSql)} ${fromSql}`,
    replacements: auditValues(entry, prefix),
  };
}

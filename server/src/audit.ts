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
}

/** The platform itself (a job, a webhook): no user, no address. */
export const systemCaller = (requestId: string | null = null): Caller => ({ userId: null, kind: 'system', accountId: null, ip: null, requestId });

/** The same request, acting as a known user (the one who just signed in, or whose reset link was used). */
export const callerAs = (caller: Caller, user: { id: number; kind: Caller['kind'] }): Caller => ({ ...caller, userId: user.id, kind: user.kind });

export interface AuditEntry {
  actorUserId?: number | null;
  actorKind: `${AuditActorKind}`;
  action: string;
  entityKind?: EntityKind | 'user' | 'account' | 'email' | 'email_campaign' | 'job' | null;
  entityId?: string | number | null;
  ip?: string | null;
  requestId?: string | null;
  /** Never patient names, dates of birth or results: ids and outcomes only. */
  details?: Record<string, unknown>;
}

/** The actor fields of an audit entry, from the caller: the one way an audit row names who did it. */
export function auditActor(caller: Caller): Pick<AuditEntry, 'actorUserId' | 'actorKind' | 'ip' | 'requestId'> {
  return { actorUserId: caller.userId, actorKind: caller.kind, ip: caller.ip, requestId: caller.requestId };
}

/**
 * Appends to the audit table (append-only: the database refuses updates and deletes). One plain
 * INSERT without RETURNING: every list a user pages through writes one, so it is kept cheap.
 */
export async function recordAudit(db: Db, entry: AuditEntry, transaction?: Transaction): Promise<void> {
  await db.sequelize.query(
    `INSERT INTO audit_events (actor_user_id, actor_kind, action, entity_kind, entity_id, ip, request_id, details)
     VALUES (:actorUserId, :actorKind, :action, :entityKind, :entityId, :ip, :requestId, CAST(:details AS jsonb))`,
    {
      replacements: {
        actorUserId: entry.actorUserId ?? null,
        actorKind: entry.actorKind,
        action: entry.action,
        entityKind: entry.entityKind ?? null,
        entityId: entry.entityId == null ? null : String(entry.entityId),
        ip: entry.ip ?? null,
        requestId: entry.requestId ?? null,
        details: JSON.stringify(entry.details ?? {}),
      },
      type: QueryTypes.INSERT,
      transaction,
    },
  );
}

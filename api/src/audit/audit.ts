import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { EntityKind } from '@platform/domain';

export interface AuditEntry {
  actorUserId?: number | null;
  actorKind: 'admin' | 'provider' | 'lab' | 'patient' | 'system' | 'anonymous';
  action: string;
  entityKind?: EntityKind | 'user' | 'account' | null;
  entityId?: string | number | null;
  ip?: string | null;
  requestId?: string | null;
  /** Never patient names, dates of birth or results: ids and outcomes only. */
  details?: Record<string, unknown>;
}

/** Appends to the audit table (append-only: the database refuses updates and deletes). */
export async function recordAudit(db: Db, entry: AuditEntry, transaction?: Transaction): Promise<void> {
  await db.models.AuditEvent.create(
    {
      actorUserId: entry.actorUserId ?? null,
      actorKind: entry.actorKind,
      action: entry.action,
      entityKind: entry.entityKind ?? null,
      entityId: entry.entityId == null ? null : String(entry.entityId),
      ip: entry.ip ?? null,
      requestId: entry.requestId ?? null,
      details: entry.details ?? {},
    },
    { transaction },
  );
}

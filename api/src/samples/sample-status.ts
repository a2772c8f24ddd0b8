/**
 * The one way a sample's status changes: checked against the lifecycle table of domain/, with a
 * status event (the sample's timeline) and an audit event written in the caller's transaction.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { checkTransition, SampleStatus, type Actor, type RejectionReason, type SampleStatus as Status } from '@platform/domain';
import { recordAudit } from '../audit/audit';
import { conflict } from '../http/errors';

type SampleRow = InstanceType<Db['models']['Sample']>;

export interface StatusChange {
  to: Status;
  actor: { kind: Actor; userId: number | null };
  reason?: string | null;
  meta?: { ip?: string | null; requestId?: string | null };
  /** When the change happened, if not now (a receipt time typed by the lab, for example). */
  at?: Date;
}

export async function moveSample(db: Db, transaction: Transaction, sample: SampleRow, change: StatusChange): Promise<void> {
  const from = sample.status as Status;
  const check = checkTransition({ from, to: change.to, actor: change.actor.kind, reason: change.reason, statusBeforeStorage: sample.statusBeforeStorage });
  if (!check.ok) throw conflict(check.error);
  const at = change.at ?? new Date();
  await sample.update(
    {
      status: change.to,
      statusBeforeStorage: change.to === SampleStatus.InStorage ? from : null,
      ...(change.to === SampleStatus.Rejected ? { rejectionReason: change.reason as RejectionReason } : {}),
      ...(change.to === SampleStatus.InQueue && !sample.receivedAt ? { receivedAt: at, receivedByUserId: change.actor.userId } : {}),
    },
    { transaction },
  );
  await db.models.SampleStatusEvent.create(
    { sampleId: sample.id, fromStatus: from, toStatus: change.to, reason: change.reason ?? null, actorUserId: change.actor.userId, actorKind: change.actor.kind, createdAt: at },
    { transaction },
  );
  await recordAudit(
    db,
    {
      actorUserId: change.actor.userId,
      actorKind: change.actor.kind,
      action: 'sample.status_changed',
      entityKind: 'sample',
      entityId: sample.id,
      ip: change.meta?.ip,
      requestId: change.meta?.requestId,
      details: { from, to: change.to },
    },
    transaction,
  );
}

/**
 * The one way a sample's status changes: checked against the lifecycle table of domain/, with a
 * status event (the sample's timeline) and an audit event written in the caller's transaction.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { checkTransition, SampleStatus, type Actor, type RejectionReason, type SampleStatus as Status } from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict } from '../errors';

type SampleRow = InstanceType<Db['models']['Sample']>;

export interface StatusChange {
  to: Status;
  by: Caller;
  reason?: string | null;
  /** When the change happened, if not now (a receipt time typed by the lab, for example). */
  at?: Date;
}

export async function moveSample(db: Db, transaction: Transaction, sample: SampleRow, change: StatusChange): Promise<void> {
  const from = sample.status as Status;
  const { by } = change;
  const check = checkTransition({ from, to: change.to, actor: by.kind as Actor, reason: change.reason, statusBeforeStorage: sample.statusBeforeStorage });
  if (!check.ok) throw conflict(check.error);
  const at = change.at ?? new Date();
  await sample.update(
    {
      status: change.to,
      statusBeforeStorage: change.to === SampleStatus.InStorage ? from : null,
      ...(change.to === SampleStatus.Rejected ? { rejectionReason: change.reason as RejectionReason } : {}),
      ...(change.to === SampleStatus.InQueue && !sample.receivedAt ? { receivedAt: at, receivedByUserId: by.userId } : {}),
    },
    { transaction },
  );
  await db.models.SampleStatusEvent.create(
    { sampleId: sample.id, fromStatus: from, toStatus: change.to, reason: change.reason ?? null, actorUserId: by.userId, actorKind: by.kind as Actor, createdAt: at },
    { transaction },
  );
  await recordAudit(
    db,
    {
      ...auditActor(by),
      action: 'sample.status_changed',
      entityKind: 'sample',
      entityId: sample.id,
      details: { from, to: change.to },
    },
    transaction,
  );
}

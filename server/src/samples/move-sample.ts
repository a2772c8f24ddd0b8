/**
 * The one way a sample's status changes: checked against the lifecycle table of domain/, with a
 * status event (the sample's timeline) and an audit event written in the caller's transaction.
 * A sample In Storage whose lab work goes on (its result approved or delivered, the sample
 * rejected) stays In Storage: the status it goes back to advances instead, its status event and
 * audit row saying so (planStatusChange in domain/).
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { planStatusChange, SampleStatus, type Actor, type RejectionReason, type SampleStatus as Status } from '@platform/domain';
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
  const { by } = change;
  const plan = planStatusChange(sample, { to: change.to, actor: by.kind as Actor, reason: change.reason });
  if (!plan.ok) throw conflict(plan.error);
  const at = change.at ?? new Date();
  await sample.update(
    {
      status: plan.status,
      statusBeforeStorage: plan.statusBeforeStorage,
      ...(change.to === SampleStatus.Rejected ? { rejectionReason: change.reason as RejectionReason } : {}),
      ...(change.to === SampleStatus.InQueue && !sample.receivedAt ? { receivedAt: at, receivedByUserId: by.userId } : {}),
    },
    { transaction },
  );
  await db.models.SampleStatusEvent.create(
    { sampleId: sample.id, fromStatus: plan.event.from, toStatus: plan.event.to, reason: plan.event.reason, actorUserId: by.userId, actorKind: by.kind as Actor, createdAt: at },
    { transaction },
  );
  await recordAudit(
    db,
    {
      ...auditActor(by),
      action: 'sample.status_changed',
      entityKind: 'sample',
      entityId: sample.id,
      details: { from: plan.event.from, to: plan.event.to, ...(plan.inStorage ? { inStorage: true } : {}) },
    },
    transaction,
  );
}

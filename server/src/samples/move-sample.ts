/**
 * The one way a sample comes into being and its status changes: checked against the lifecycle table of domain/, with a
 * status event (the sample's timeline) and an audit event written in the caller's transaction.
 * A sample In Storage whose lab work goes on (its result approved or delivered, the sample
 * rejected) stays In Storage: the status it goes back to advances instead, its status event and
 * audit row saying so (planStatusChange in domain/).
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { planStatusChange, SampleStatus, type Actor, type RejectionReason, type SampleStatus as Status, type SampleType } from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict } from '../errors';

type SampleRow = InstanceType<Db['models']['Sample']>;
type NewSample = {
  barcode: string; sampleType: SampleType | null; accountId: number | null; patientId: number; orderId: number; collectedAt?: Date | null;
};

/**
 * A new sample, Order Placed, with the first step of its timeline (there is no status before it,
 * so it is not a transition of the lifecycle) in the caller's transaction.
 */
export async function createSample(db: Db, transaction: Transaction, values: NewSample, first: { by: Caller; reason?: string | null; at?: Date }): Promise<SampleRow> {
  const sample = await db.models.Sample.create({ ...values, status: SampleStatus.OrderPlaced }, { transaction });
  await db.models.SampleStatusEvent.create(
    {
      sampleId: sample.id, fromStatus: null, toStatus: SampleStatus.OrderPlaced, reason: first.reason ?? null,
      actorUserId: first.by.userId, actorKind: first.by.kind as Actor, ...(first.at ? { createdAt: first.at } : {}),
    },
    { transaction },
  );
  return sample;
}

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

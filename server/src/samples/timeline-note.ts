/**
 * A step on a sample's timeline that does not change its status (a re-extraction, say): a status
 * event from and to the sample's current status, with the reason saying what happened. Status
 * changes themselves go through moveSample only.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { Actor, SampleStatus } from '@platform/domain';
import type { Caller } from '../audit';

type SampleRow = InstanceType<Db['models']['Sample']>;

export async function noteOnTimeline(db: Db, transaction: Transaction, sample: SampleRow, note: { by: Caller; reason: string; at?: Date }): Promise<void> {
  const status = sample.status as SampleStatus;
  await db.models.SampleStatusEvent.create(
    { sampleId: sample.id, fromStatus: status, toStatus: status, reason: note.reason, actorUserId: note.by.userId, actorKind: note.by.kind as Actor, createdAt: note.at ?? new Date() },
    { transaction },
  );
}

/**
 * samples/create: a sample the lab orders itself (a COVID-19 PCR or Rapid swab taken at or brought to the
 * lab). One transaction: the patient (new, or an existing one), an order (origin Lab Ordered,
 * portal Lab Toolbox), the sample and its test; the sample walks the lifecycle to In Queue
 * (Order Placed -> Pending Shipment -> In Queue, received without tracking), every step on its timeline.
 */
import { randomInt } from 'node:crypto';
import type { Transaction } from 'sequelize';
import {
  catalogueEntry,
  patientShortName,
  Portal,
  SampleStatus,
  TestOrigin,
  type LabSampleCreateBody,
  type LabSampleCreated,
  type SampleStatus as Status, formatDate,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { badRequest, conflict, conflictOnDuplicate, notFound, type FieldError } from '../errors';
import { createSample, moveSample } from './move-sample';

type Ctx = Pick<ServerContext, 'db' | 'config'>;

/** A free lab order number: RG_ + 9 digits (SPEC §5 order ids). */
async function newOrderNumber(ctx: Ctx, transaction: Transaction): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = `RG_${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
    if (!(await ctx.db.models.Order.findOne({ where: { orderNumber: candidate }, attributes: ['id'], transaction }))) return candidate;
  }
  throw new Error('could not find a free order number');
}

export async function createLabSample(ctx: Ctx, caller: UserCaller, body: LabSampleCreateBody): Promise<LabSampleCreated> {
  const m = ctx.db.models;
  const receivedAt = body.receivedAt ?? new Date();
  if (body.collectedAt && body.collectedAt > receivedAt) {
    throw badRequest('The collection time must be before the receipt time', [{ field: 'collectedAt', message: 'The collection time must be before the receipt time' }]);
  }
  // A barcode is one sample's: a 409 naming it, whether it was registered before or at the same moment.
  const taken = (at?: Date): FieldError => ({ field: 'barcode', message: `Barcode ${body.barcode} is already used by another sample${at ? ` (registered ${formatDate(at, ctx.config.labTimeZone)})` : ''}` });
  return conflictOnDuplicate(() => ctx.db.sequelize.transaction(async (transaction) => {
      const existing = await m.Sample.findOne({ where: { barcode: body.barcode }, attributes: ['id', 'createdAt'], transaction });
      if (existing) {
        const field = taken(existing.createdAt);
        throw conflict(field.message, [field]);
      }

      let patient: InstanceType<typeof m.Patient>;
      if (body.patientId !== undefined) {
        const found = await m.Patient.findByPk(body.patientId, { transaction });
        if (!found) throw notFound('Patient not found');
        patient = found;
      } else {
        const p = body.patient!;
        patient = await m.Patient.create(
          { accountId: null, firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, email: p.email || null, phone: p.phone || null },
          { transaction },
        );
        await recordAudit(ctx.db, { ...auditActor(caller), action: 'patient.created', entityKind: 'patient', entityId: patient.id, details: { by: 'lab' } }, transaction);
      }

      const order = await m.Order.create(
        {
          orderNumber: await newOrderNumber(ctx, transaction),
          accountId: patient.accountId ?? null,
          patientId: patient.id,
          physicianId: null,
          origin: TestOrigin.LabOrdered,
          portal: Portal.LabToolbox,
          createdByUserId: caller.userId,
        },
        { transaction },
      );
      const sample = await createSample(
        ctx.db, transaction,
        { barcode: body.barcode, sampleType: body.sampleType, accountId: patient.accountId ?? null, patientId: patient.id, orderId: order.id, collectedAt: body.collectedAt ?? null },
        { by: caller, reason: 'Ordered by the lab', at: receivedAt },
      );
      await m.Test.create({ orderId: order.id, sampleId: sample.id, name: body.test, parentType: catalogueEntry(body.test).parentType }, { transaction });
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.PendingShipment, by: caller, at: receivedAt });
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.InQueue, by: caller, at: receivedAt });
      await recordAudit(ctx.db, { ...auditActor(caller), action: 'sample.created', entityKind: 'sample', entityId: sample.id, details: { orderId: order.id, test: body.test, origin: TestOrigin.LabOrdered } }, transaction);

      return {
        sampleId: sample.id,
        barcode: sample.barcode,
        orderNumber: order.orderNumber,
        test: body.test,
        status: sample.status as Status,
        patientId: patient.id,
        patient: patientShortName(patient),
        receivedAt: receivedAt.toISOString(),
      };
    }), { samples_barcode_key: taken() });
}

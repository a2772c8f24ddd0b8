/**
 * Scanning onto a storage plate, taking a sample off one, and discarding a sample. Each command is
 * one transaction; a sample's status changes only through moveSample (status event + audit). Two
 * requests at the same moment for the same well or the same sample: one wins, the other gets a
 * 409 naming what is taken (the sample row is locked, and the database's unique indexes decide
 * the rest: conflictOnDuplicate turns their violation into the same 409).
 */
import type { Transaction } from 'sequelize';
import {
  fullName,
  nextFreeWell,
  readStorageContent,
  readWell,
  SampleStatus,
  StorageRemoval,
  type SampleStatus as Status,
  type StorageDiscardBody,
  type StorageDiscarded,
  type StoragePlacement,
  type StoragePlacementBody,
  type StorageSampleState,
  type StorageTakeOut,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, conflictOnDuplicate, notFound, validationFailed, type FieldError } from '../errors';
import { moveSample } from './move-sample';
import type { ServerContext } from '../context';
import { checkPlacements, writePlacements, type PlacementProblem } from './storage-placement';

type Ctx = Pick<ServerContext, 'db'>;
type Models = ServerContext['db']['models'];
type SampleRow = InstanceType<Models['Sample']>;
type WellRow = InstanceType<Models['StoragePlateWell']>;

/** The request fields the checker's columns stand for. */
const FIELD_OF: Record<string, string> = { plate: 'plateId', well: 'well', sample_id: 'sampleId' };

/** The first problem of a scan as the error its kind calls for: 400 naming the field, 404, or 409 naming what is taken. */
function scanRefusal(problems: PlacementProblem[]): Error {
  const invalid = problems.filter((p) => p.kind === 'invalid');
  if (invalid.length) return validationFailed(invalid.map((p) => ({ field: FIELD_OF[p.column] ?? p.column, message: p.message })));
  const first = problems.find((p) => p.kind === 'not-found');
  if (first) return notFound(first.message);
  return conflict(problems.map((p) => p.message).join('; '), problems.map((p) => ({ field: FIELD_OF[p.column] ?? p.column, message: p.message })));
}

async function findPlate(ctx: Ctx, plateId: number, transaction: Transaction) {
  const plate = await ctx.db.models.StoragePlate.findByPk(plateId, { attributes: ['id', 'name'], transaction });
  if (!plate) throw notFound('Plate not found');
  return plate;
}

async function occupiedWells(ctx: Ctx, plateId: number, transaction: Transaction): Promise<string[]> {
  const wells = await ctx.db.models.StoragePlateWell.findAll({ where: { plateId, removedAt: null }, attributes: ['well'], transaction });
  return wells.map((w) => w.well);
}

const stateOf = (sample: SampleRow, previousStatus: Status): StorageSampleState => ({ id: sample.id, barcode: sample.barcode, previousStatus, status: sample.status as Status });

/** The unique indexes a placement may hit when another request wins the race, as 409s naming what is taken. */
function takenBy(plateName: string, well: string, sampleId: string): Record<string, FieldError> {
  return {
    storage_plate_wells_occupied_key: { field: 'well', message: `Well ${well} of plate ${plateName} is already taken (filled by another scan a moment ago)` },
    storage_plate_wells_sample_key: { field: 'sampleId', message: `${sampleId} is already on a storage plate (placed by another scan a moment ago)` },
  };
}

/** POST storage/plates/:plateId/wells: one scan placed in a well; a sample moves to In Storage. */
export async function placeSample(ctx: Ctx, caller: UserCaller, plateId: number, body: StoragePlacementBody): Promise<StoragePlacement> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const plate = await findPlate(ctx, plateId, transaction);
    const check = await checkPlacements(ctx.db, [{ row: 1, plate: plate.name, well: body.well, sampleId: body.sampleId }], { transaction, lock: true });
    if (check.problems.length) throw scanRefusal(check.problems);
    const [placement] = check.placements;
    const previousStatus = placement.sample?.status as Status | undefined;
    await conflictOnDuplicate(() => writePlacements(ctx.db, transaction, caller, [placement]), takenBy(plate.name, placement.well, body.sampleId));
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'storage.placed', entityKind: placement.sample ? 'sample' : null, entityId: placement.sample?.id ?? null,
      details: { plateId, well: placement.well, kind: placement.kind },
    }, transaction);
    const next = nextFreeWell(await occupiedWells(ctx, plateId, transaction), placement.well);
    const what = placement.kind === 'sample' ? `${placement.label} is In Storage` : `${placement.label} (${placement.kind === 're-extraction' ? 're-extraction' : 'control'}) placed`;
    return {
      plate: { id: plate.id, name: plate.name }, well: placement.well, label: placement.label, kind: placement.kind,
      sample: placement.sample ? stateOf(placement.sample, previousStatus!) : null,
      nextFreeWell: next,
      message: `${what} in ${plate.name} ${placement.well}`,
    };
  });
}

/** The well's current content, locked; its sample (locked first, so a take-out and a discard of one sample queue up). */
async function lockedPlacement(ctx: Ctx, where: { plateId: number; well: string } | { sampleId: number; contentKind: 'sample' }, transaction: Transaction) {
  const m = ctx.db.models;
  const seen = await m.StoragePlateWell.findOne({ where: { ...where, removedAt: null }, attributes: ['id', 'sampleId'], transaction });
  if (!seen) return null;
  const sample = seen.sampleId ? await m.Sample.findByPk(seen.sampleId, { transaction, lock: transaction.LOCK.UPDATE }) : null;
  const placement = await m.StoragePlateWell.findOne({ where: { id: seen.id, removedAt: null }, transaction, lock: transaction.LOCK.UPDATE });
  return placement ? { placement, sample } : null;
}

/** Empties a well: its row is kept with who, when and why. */
async function empty(placement: WellRow, caller: UserCaller, removal: StorageRemoval, transaction: Transaction): Promise<void> {
  await placement.update({ removedAt: new Date(), removedByUserId: caller.userId, removal }, { transaction });
}

/** Back to the status it left for storage, through the lifecycle (nothing happens to a sample not In Storage). */
async function leaveStorage(ctx: Ctx, caller: UserCaller, sample: SampleRow, transaction: Transaction): Promise<void> {
  if (sample.status !== SampleStatus.InStorage) return;
  await moveSample(ctx.db, transaction, sample, { to: sample.statusBeforeStorage!, by: caller });
}

/** POST storage/plates/:plateId/wells/:well/take-out: the well is emptied; a sample goes back to the status it left. */
export async function takeOut(ctx: Ctx, caller: UserCaller, plateId: number, wellParam: string): Promise<StorageTakeOut> {
  const well = readWell(wellParam);
  if (!well.ok) throw validationFailed([{ field: 'well', message: well.error }]);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const plate = await findPlate(ctx, plateId, transaction);
    const found = await lockedPlacement(ctx, { plateId, well: well.value }, transaction);
    if (!found) throw notFound(`Well ${well.value} of plate ${plate.name} is empty`);
    const { placement, sample } = found;
    const previousStatus = sample?.status as Status | undefined;
    await empty(placement, caller, StorageRemoval.TakenOut, transaction);
    if (sample && placement.contentKind === 'sample') await leaveStorage(ctx, caller, sample, transaction);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'storage.taken_out', entityKind: sample ? 'sample' : null, entityId: sample?.id ?? null,
      details: { plateId, well: well.value, kind: placement.contentKind },
    }, transaction);
    const state = sample ? stateOf(sample, previousStatus!) : null;
    return {
      plate: { id: plate.id, name: plate.name }, well: well.value, label: placement.label, kind: placement.contentKind, sample: state,
      message: `${placement.label} taken out of ${plate.name} ${well.value}${state && state.status !== state.previousStatus ? `: back to ${state.status}` : ''}`,
    };
  });
}

/**
 * POST storage/discard: a Completed sample's specimen is discarded (Completed -> Discarded), with
 * who and when. A sample on a plate is taken off it first (In Storage -> the status it left); the
 * lifecycle refuses any sample that is not Completed then (409 in its words), and nothing changes.
 */
export async function discardSample(ctx: Ctx, caller: UserCaller, body: StorageDiscardBody): Promise<StorageDiscarded> {
  const content = readStorageContent(body.sampleId);
  if (!content.ok) throw validationFailed([{ field: 'sampleId', message: content.error }]);
  if (content.value.kind !== 'sample') throw validationFailed([{ field: 'sampleId', message: `${body.sampleId} is not a sample: only a sample is discarded` }]);
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findOne({ where: { barcode: content.value.sampleId! }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw notFound(`No sample has id ${content.value.sampleId}`);
    const previousStatus = sample.status as Status;
    const found = await lockedPlacement(ctx, { sampleId: sample.id, contentKind: 'sample' }, transaction);
    let takenFrom: StorageDiscarded['takenFrom'] = null;
    if (found) {
      await empty(found.placement, caller, StorageRemoval.Discarded, transaction);
      const plate = await m.StoragePlate.findByPk(found.placement.plateId, { attributes: ['id', 'name'], transaction });
      takenFrom = { plateId: plate!.id, plateName: plate!.name, well: found.placement.well };
    }
    await leaveStorage(ctx, caller, sample, transaction);
    const at = new Date();
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Discarded, by: caller, reason: body.reason || null, at });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'storage.discarded', entityKind: 'sample', entityId: sample.id, details: { takenFrom } }, transaction);
    const user = await m.User.findByPk(caller.userId, { attributes: ['id', 'firstName', 'lastName'], transaction });
    return {
      sample: stateOf(sample, previousStatus),
      takenFrom,
      discardedBy: { id: caller.userId, name: fullName(user) ?? 'Unknown' },
      discardedAt: at.toISOString(),
      message: `${sample.barcode} discarded${takenFrom ? ` (taken out of ${takenFrom.plateName} ${takenFrom.well})` : ''}`,
    };
  });
}

/**
 * Storage plates: the list, a plate's map (what each well holds, the sample's status, the next
 * free well), a new plate, and where a sample is ("find a sample"). Reads of sample data are
 * audited; answers carry sample ids and statuses, never patient details.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  fullName,
  nextFreeWell,
  readPlateName,
  readStorageContent,
  STORAGE_WELL_COUNT,
  STORAGE_WELLS,
  type SampleStatus,
  type StorageFindQuery,
  type StoragePerson,
  type StoragePlaceView,
  type StoragePlateCreateBody,
  type StoragePlateSummary,
  type StoragePlatesQuery,
  type StoragePlateView,
  type StorageSampleLocation,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, conflictOnDuplicate, notFound, validationFailed } from '../errors';
import type { ServerContext } from '../context';
import { containsPattern, toIso } from '../answer-values';

type Ctx = Pick<ServerContext, 'db'>;
type Models = ServerContext['db']['models'];
type PlateRow = InstanceType<Models['StoragePlate']>;
type WellRow = InstanceType<Models['StoragePlateWell']>;
type UserRow = InstanceType<Models['User']>;

const USER_ATTRIBUTES = ['id', 'firstName', 'lastName'];
const person = (user: UserRow | null | undefined, id: number): StoragePerson => ({ id, name: fullName(user) ?? 'Unknown' });

interface Counts { samples: number; controls: number; filled: number }

/** How many samples and controls each plate holds now. */
async function countsOf(ctx: Ctx, plateIds: number[], transaction?: Transaction): Promise<Map<number, Counts>> {
  if (!plateIds.length) return new Map();
  const rows = await ctx.db.sequelize.query<{ plateId: string; samples: string; controls: string }>(
    `SELECT plate_id AS "plateId", count(*) FILTER (WHERE sample_id IS NOT NULL) AS samples, count(*) FILTER (WHERE sample_id IS NULL) AS controls
       FROM storage_plate_wells WHERE removed_at IS NULL AND plate_id IN (:plateIds) GROUP BY plate_id`,
    { type: QueryTypes.SELECT, replacements: { plateIds }, transaction },
  );
  return new Map(rows.map((r) => [Number(r.plateId), { samples: Number(r.samples), controls: Number(r.controls), filled: Number(r.samples) + Number(r.controls) }]));
}

function summaryOf(plate: PlateRow, counts: Counts | undefined): StoragePlateSummary {
  return {
    id: plate.id,
    name: plate.name,
    createdBy: person(plate.createdBy, plate.createdByUserId),
    createdAt: plate.createdAt.toISOString(),
    sampleCount: counts?.samples ?? 0,
    controlCount: counts?.controls ?? 0,
    freeWells: STORAGE_WELL_COUNT - (counts?.filled ?? 0),
  };
}

/** GET storage/plates: newest first, optionally those whose name contains `name`. */
export async function listStoragePlates(ctx: Ctx, query: StoragePlatesQuery): Promise<{ total: number; rows: StoragePlateSummary[] }> {
  const m = ctx.db.models;
  const { rows, count } = await m.StoragePlate.findAndCountAll({
    where: query.name ? { name: { [Op.iLike]: containsPattern(query.name) } } : {},
    include: [{ model: m.User, as: 'createdBy', attributes: USER_ATTRIBUTES }],
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const counts = await countsOf(ctx, rows.map((p) => p.id));
  return { total: count, rows: rows.map((p) => summaryOf(p, counts.get(p.id))) };
}

function wellView(w: WellRow): StoragePlateView['wells'][number] {
  return {
    well: w.well,
    label: w.label,
    kind: w.contentKind,
    sampleId: w.sampleId ?? null,
    barcode: w.sample?.barcode ?? null,
    status: (w.sample?.status as SampleStatus | undefined) ?? null,
    statusBeforeStorage: w.sample?.statusBeforeStorage ?? null,
    placedBy: person(w.placedBy, w.placedByUserId),
    placedAt: w.createdAt.toISOString(),
  };
}

/** A plate's map as it is now (null when there is no such plate). */
export async function loadStoragePlateView(ctx: Ctx, plateId: number, transaction?: Transaction): Promise<StoragePlateView | null> {
  const m = ctx.db.models;
  const plate = await m.StoragePlate.findByPk(plateId, { include: [{ model: m.User, as: 'createdBy', attributes: USER_ATTRIBUTES }], transaction });
  if (!plate) return null;
  const wells = await m.StoragePlateWell.findAll({
    where: { plateId, removedAt: null },
    include: [
      { model: m.Sample, as: 'sample', attributes: ['id', 'barcode', 'status', 'statusBeforeStorage'] },
      { model: m.User, as: 'placedBy', attributes: USER_ATTRIBUTES },
    ],
    transaction,
  });
  wells.sort((a, b) => STORAGE_WELLS.indexOf(a.well) - STORAGE_WELLS.indexOf(b.well));
  const samples = wells.filter((w) => w.sampleId !== null).length;
  return {
    ...summaryOf(plate, { samples, controls: wells.length - samples, filled: wells.length }),
    wells: wells.map(wellView),
    nextFreeWell: nextFreeWell(wells.map((w) => w.well)),
  };
}

/** GET storage/plates/:plateId */
export async function getStoragePlate(ctx: Ctx, caller: UserCaller, plateId: number): Promise<StoragePlateView> {
  const view = await loadStoragePlateView(ctx, plateId);
  if (!view) throw notFound('Plate not found');
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'storage_plate.viewed', details: { plateId, samples: view.sampleCount } });
  return view;
}

/** POST storage/plates: a new, empty plate; its name is unique (409 naming it, also when two ask at once). */
export async function createStoragePlate(ctx: Ctx, caller: UserCaller, body: StoragePlateCreateBody): Promise<StoragePlateView> {
  const name = readPlateName(body.name, 'Plate name');
  if (!name.ok) throw validationFailed([{ field: 'name', message: name.error }]);
  const taken = { field: 'name', message: `A plate named ${name.value} already exists` };
  const plateId = await conflictOnDuplicate(
    () => ctx.db.sequelize.transaction(async (transaction) => {
      if (await ctx.db.models.StoragePlate.findOne({ where: { name: name.value }, attributes: ['id'], transaction })) throw conflict(taken.message, [taken]);
      const plate = await ctx.db.models.StoragePlate.create({ name: name.value, createdByUserId: caller.userId }, { transaction });
      await recordAudit(ctx.db, { ...auditActor(caller), action: 'storage_plate.created', details: { plateId: plate.id } }, transaction);
      return plate.id;
    }),
    { storage_plates_name_key: taken },
  );
  return (await loadStoragePlateView(ctx, plateId))!;
}

function placeView(w: WellRow): StoragePlaceView {
  return {
    plateId: w.plateId,
    plateName: w.plate!.name,
    well: w.well,
    label: w.label,
    kind: w.contentKind,
    placedAt: w.createdAt.toISOString(),
    placedBy: person(w.placedBy, w.placedByUserId),
    removedAt: toIso(w.removedAt),
    removedBy: w.removedByUserId ? person(w.removedBy, w.removedByUserId) : null,
    removal: w.removal ?? null,
  };
}

/** The places of a sample listed by "find a sample". */
const HISTORY_LIMIT = 20;

/** GET storage/find?sampleId=…: where a sample and its re-extraction are, and where they were. */
export async function findStoredSample(ctx: Ctx, caller: UserCaller, query: StorageFindQuery): Promise<StorageSampleLocation> {
  const m = ctx.db.models;
  const content = readStorageContent(query.sampleId);
  if (!content.ok) throw validationFailed([{ field: 'sampleId', message: content.error }]);
  if (!content.value.sampleId) throw validationFailed([{ field: 'sampleId', message: `${query.sampleId} is a control, not a sample: open a plate to see its controls` }]);
  const sample = await m.Sample.findOne({ where: { barcode: content.value.sampleId }, attributes: ['id', 'barcode', 'status', 'statusBeforeStorage'] });
  if (!sample) throw notFound(`No sample has id ${content.value.sampleId}`);
  const wells = await m.StoragePlateWell.findAll({
    where: { sampleId: sample.id },
    include: [
      { model: m.StoragePlate, as: 'plate', attributes: ['name'] },
      { model: m.User, as: 'placedBy', attributes: USER_ATTRIBUTES },
      { model: m.User, as: 'removedBy', attributes: USER_ATTRIBUTES },
    ],
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: HISTORY_LIMIT + 2,
  });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'storage.sample_found', entityKind: 'sample', entityId: sample.id, details: { places: wells.filter((w) => !w.removedAt).length } });
  return {
    sample: { id: sample.id, barcode: sample.barcode, status: sample.status, statusBeforeStorage: sample.statusBeforeStorage ?? null },
    places: wells.filter((w) => !w.removedAt).map(placeView),
    history: wells.filter((w) => w.removedAt).slice(0, HISTORY_LIMIT).map(placeView),
  };
}

/**
 * PCR register and resulting: the plate tests of domain (PLATE_TESTS: COVID-19 PCR, and COVID-19
 * Rapid, entered the same way). A plate is registered with what each well holds:
 * samples of a plate test In Queue (moved to In Testing), re-extractions of samples already In
 * Testing (barcode.reex) and controls (at least one positive and one negative). The run's
 * results are entered once for the whole plate: each sample well becomes an In Review result
 * version; a plate whose controls failed keeps its results in review, and approval refuses them.
 */
import { Op, type Transaction } from 'sequelize';
import {
  checkPcrControls,
  classifyPcrWellLabel,
  describeBarcodeProblem,
  patientShortName,
  PCR_WELLS,
  PcrPlateStatus,
  PLATE_TESTS,
  PLATE_TESTS_LABEL,
  SampleStatus,
  TestResultStatus,
  type PcrControlCheck,
  type PcrControlKind,
  type PcrPlateBody,
  type PcrResultsBody,
  type TestName,
  type PlateSummary,
  type PlateView,
  type QueuedSample, formatDate, fullName,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { toIso } from '../answer-values';
import { conflict, conflictOnDuplicate, type FieldError, notFound, validationFailed } from '../errors';
import { moveSample } from '../samples/move-sample';

type Ctx = Pick<ServerContext, 'db'>;
/** What a use case that prints a date in its answer needs besides: the lab's clock. */
type ClockCtx = Ctx & Pick<ServerContext, 'config'>;
type Models = ServerContext['db']['models'];
type WellRow = InstanceType<Models['PcrPlateWell']>;

const wellOrder = (w: string) => PCR_WELLS.indexOf(w);
/** A test whose results are entered on a plate (COVID-19 PCR, COVID-19 Rapid). */
const isPlateTest = (t: { name: string }) => PLATE_TESTS.includes(t.name as TestName);

/** Whether the wells' controls passed (for a resulted plate). */
export function plateControls(wells: readonly Pick<WellRow, 'well' | 'label' | 'controlKind' | 'result'>[]): PcrControlCheck {
  return checkPcrControls(
    wells.filter((w) => w.controlKind).map((w) => ({ well: w.well, label: w.label, control: w.controlKind!, result: w.result ?? null })),
  );
}

export async function loadPlateView(ctx: Ctx, plateId: number, transaction?: Transaction): Promise<PlateView | null> {
  const m = ctx.db.models;
  const plate = await m.PcrPlate.findByPk(plateId, {
    include: [
      { model: m.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] },
      { model: m.User, as: 'resultedBy', attributes: ['id', 'firstName', 'lastName'] },
    ],
    transaction,
  });
  if (!plate) return null;
  const wells = await m.PcrPlateWell.findAll({
    where: { plateId },
    include: [
      { model: m.Sample, as: 'sample', attributes: ['id', 'barcode'], include: [{ model: m.Patient, as: 'patient', attributes: ['firstName', 'lastName', 'studyId'] }] },
      { model: m.TestResult, as: 'testResult', attributes: ['id', 'status'] },
      // The test the well was registered for (joined in the same query): PCR and Rapid wells look alike otherwise.
      { model: m.Test, as: 'test', attributes: ['id', 'name'] },
    ],
    transaction,
  });
  wells.sort((a, b) => wellOrder(a.well) - wellOrder(b.well));
  const resulted = plate.status === PcrPlateStatus.Resulted;
  const check = resulted ? plateControls(wells) : null;
  return {
    id: plate.id,
    name: plate.name,
    status: plate.status,
    createdBy: { id: plate.createdByUserId, name: fullName(plate.createdBy) ?? 'Unknown' },
    createdAt: plate.createdAt.toISOString(),
    resultedBy: plate.resultedBy ? { id: plate.resultedBy.id, name: fullName(plate.resultedBy) ?? 'Unknown' } : null,
    resultedAt: toIso(plate.resultedAt),
    sampleCount: wells.filter((w) => w.sampleId).length,
    controls: check ? { passed: check.ok, problems: check.ok ? [] : check.problems } : null,
    wells: wells.map((w) => ({
      well: w.well,
      label: w.label,
      kind: w.controlKind ?? 'sample',
      reextraction: w.sampleId !== null && w.label.endsWith('.reex'),
      sampleId: w.sampleId ?? null,
      barcode: w.sample?.barcode ?? null,
      patient: w.sample?.patient ? patientShortName(w.sample.patient) : null,
      test: w.test?.name ?? null,
      result: w.result ?? null,
      resultId: w.testResult?.id ?? null,
      resultStatus: w.testResult?.status ?? null,
    })),
  };
}

/** GET pcr/plates/:plateId */
export async function getPlate(ctx: Ctx, caller: UserCaller, plateId: number): Promise<PlateView> {
  const view = await loadPlateView(ctx, plateId);
  if (!view) throw notFound('Plate not found');
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'pcr_plate.viewed', entityKind: null, entityId: null, details: { plateId, samples: view.sampleCount } });
  return view;
}

/** GET pcr/plates: newest first. */
export async function listPlates(ctx: Ctx, query: { page: number; pageSize: number; status?: string }): Promise<{ total: number; rows: PlateSummary[] }> {
  const m = ctx.db.models;
  const where = query.status ? { status: query.status } : {};
  const { rows, count } = await m.PcrPlate.findAndCountAll({
    where,
    include: [{ model: m.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] }],
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const counts = rows.length
    ? await m.PcrPlateWell.findAll({
        where: { plateId: rows.map((r) => r.id) },
        attributes: ['plateId', 'sampleId', 'controlKind'],
      })
    : [];
  return {
    total: count,
    rows: rows.map((p) => ({
      id: p.id,
      name: p.name,
      status: p.status,
      createdBy: { id: p.createdByUserId, name: fullName(p.createdBy) ?? 'Unknown' },
      createdAt: p.createdAt.toISOString(),
      resultedAt: toIso(p.resultedAt),
      sampleCount: counts.filter((w) => w.plateId === p.id && w.sampleId).length,
      controlCount: counts.filter((w) => w.plateId === p.id && w.controlKind).length,
    })),
  };
}

/** GET pcr/queue: samples of a plate test In Queue, waiting for a plate (oldest receipt first). */
export async function listPcrQueue(ctx: Ctx, query: { page: number; pageSize: number }): Promise<{ total: number; rows: QueuedSample[] }> {
  const m = ctx.db.models;
  const { rows, count } = await m.Sample.findAndCountAll({
    where: { status: SampleStatus.InQueue },
    include: [
      { model: m.Test, as: 'tests', where: { name: PLATE_TESTS as TestName[] }, attributes: ['id', 'name'], required: true },
      { model: m.Patient, as: 'patient', attributes: ['firstName', 'lastName', 'studyId'] },
    ],
    attributes: ['id', 'barcode', 'sampleType', 'receivedAt', 'collectedAt'],
    order: [['receivedAt', 'ASC'], ['id', 'ASC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    distinct: true,
  });
  return {
    total: count,
    rows: rows.map((s) => ({
      sampleId: s.id,
      barcode: s.barcode,
      sampleType: s.sampleType,
      test: s.tests?.[0]?.name ?? null,
      receivedAt: toIso(s.receivedAt),
      collectedAt: toIso(s.collectedAt),
      patient: s.patient ? patientShortName(s.patient) : '',
    })),
  };
}

/** POST pcr/plates: a taken name is a 409 naming it; otherwise every well is checked, all problems are answered at once and nothing is written. */
export async function registerPlate(ctx: ClockCtx, caller: UserCaller, body: PcrPlateBody): Promise<PlateView> {
  const m = ctx.db.models;
  // The name is unique: a 409 naming it, whether the plate was registered before or at the same
  // moment (the unique violation of a concurrent registration with other samples).
  const taken = (at?: Date): FieldError => ({ field: 'name', message: `A plate named ${body.name} already exists${at ? ` (registered ${formatDate(at, ctx.config.labTimeZone)})` : ''}` });
  return conflictOnDuplicate(() => ctx.db.sequelize.transaction(async (transaction) => {
    const problems: FieldError[] = [];
    const field = (i: number) => `wells.${i}.barcode`;

    const classified = body.wells.map((w) => ({ ...w, what: classifyPcrWellLabel(w.barcode) }));
    const barcodes = [...new Set(classified.flatMap((w) => (w.what.kind === 'sample' ? [w.what.barcode] : [])))];
    const samples = barcodes.length
      ? await m.Sample.findAll({
          where: { barcode: barcodes },
          include: [{ model: m.Test, as: 'tests', attributes: ['id', 'name'] }],
          transaction,
          lock: { level: transaction.LOCK.UPDATE, of: m.Sample },
        })
      : [];
    // Checked after the samples are locked: a registration of the same plate at the same moment
    // waited for them above and now sees the plate the first one committed.
    const existing = await m.PcrPlate.findOne({ where: { name: body.name }, attributes: ['id', 'createdAt'], transaction });
    if (existing) {
      const field = taken(existing.createdAt);
      throw conflict(field.message, [field]);
    }
    const byBarcode = new Map(samples.map((s) => [s.barcode, s]));
    const covidTestIds = samples.flatMap((s) => (s.tests ?? []).filter(isPlateTest).map((t) => t.id));
    const inReview = new Set(
      covidTestIds.length
        ? (await m.TestResult.findAll({ where: { testId: covidTestIds, status: TestResultStatus.InReview }, attributes: ['testId'], transaction })).map((r) => r.testId)
        : [],
    );

    const seen = new Map<string, string>();
    const rows: { well: string; label: string; sampleId: number | null; testId: number | null; controlKind: PcrControlKind | null; moveToTesting: boolean }[] = [];
    classified.forEach((w, i) => {
      const { what } = w;
      if (what.kind === 'control') {
        rows.push({ well: w.well, label: w.barcode, sampleId: null, testId: null, controlKind: what.control, moveToTesting: false });
        return;
      }
      if (!what.reextraction) {
        const problem = describeBarcodeProblem(what.barcode);
        if (problem) {
          problems.push({ field: field(i), message: `${w.well}: "${w.barcode}" is neither a sample barcode nor a control (POS PCR CTRL, NEG PCR CTRL, Null). ${problem}` });
          return;
        }
      }
      const sample = byBarcode.get(what.barcode);
      if (!sample) return void problems.push({ field: field(i), message: `${w.well}: no sample has barcode ${what.barcode}` });
      const twice = seen.get(what.barcode);
      if (twice) return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} is already in ${twice}` });
      seen.set(what.barcode, w.well);
      const test = (sample.tests ?? []).find(isPlateTest);
      if (!test) {
        const names = (sample.tests ?? []).map((t) => t.name).join(', ') || 'none';
        return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} has no ${PLATE_TESTS_LABEL} test (its tests: ${names})` });
      }
      if (what.reextraction) {
        if (sample.status !== SampleStatus.InTesting) {
          return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} is ${sample.status}: only a sample In Testing is re-extracted` });
        }
      } else if (sample.status === SampleStatus.InTesting) {
        return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} is already In Testing: to run it again, scan it as ${what.barcode}.reex` });
      } else if (sample.status !== SampleStatus.InQueue) {
        return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} is ${sample.status}: only samples In Queue can be put on a plate` });
      }
      if (inReview.has(test.id)) {
        return void problems.push({ field: field(i), message: `${w.well}: sample ${what.barcode} has a result waiting for review: approve it, or reject it for a retest first` });
      }
      rows.push({ well: w.well, label: w.barcode, sampleId: sample.id, testId: test.id, controlKind: null, moveToTesting: !what.reextraction });
    });

    const kinds = new Set(rows.map((r) => r.controlKind));
    if (!kinds.has('positive') || !kinds.has('negative')) {
      problems.push({ field: 'wells', message: 'A plate needs at least one positive control (POS PCR CTRL) and one negative control (NEG PCR CTRL)' });
    }
    if (!rows.some((r) => r.sampleId) && !problems.some((p) => p.field.startsWith('wells.'))) {
      problems.push({ field: 'wells', message: 'A plate needs at least one sample' });
    }
    if (problems.length) throw validationFailed(problems);

    const plate = await m.PcrPlate.create({ name: body.name, status: PcrPlateStatus.Registered, createdByUserId: caller.userId }, { transaction });
    await m.PcrPlateWell.bulkCreate(
      rows.map((r) => ({ plateId: plate.id, well: r.well, label: r.label, sampleId: r.sampleId, testId: r.testId, controlKind: r.controlKind })),
      { transaction },
    );
    for (const r of rows) {
      if (!r.moveToTesting) continue;
      const sample = samples.find((s) => s.id === r.sampleId)!;
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.InTesting, by: caller });
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'pcr_plate.registered', entityKind: null, entityId: null,
      details: { plateId: plate.id, samples: rows.filter((r) => r.sampleId).length, controls: rows.filter((r) => r.controlKind).length },
    }, transaction);
    return (await loadPlateView(ctx, plate.id, transaction))!;
  }), { pcr_plates_name_key: taken() });
}

/**
 * POST pcr/plates/:plateId/results: the result of every sample and control well (null controls
 * may be left out). Each sample well gets a new In Review result version entered by the caller.
 */
export async function enterPlateResults(ctx: ClockCtx, caller: UserCaller, plateId: number, body: PcrResultsBody): Promise<PlateView> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const plate = await m.PcrPlate.findByPk(plateId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!plate) throw notFound('Plate not found');
    if (plate.status !== PcrPlateStatus.Registered) {
      throw conflict(`Plate ${plate.name} was already resulted${plate.resultedAt ? ` on ${formatDate(plate.resultedAt, ctx.config.labTimeZone)}` : ''}`);
    }
    const wells = await m.PcrPlateWell.findAll({ where: { plateId }, transaction, lock: transaction.LOCK.UPDATE });
    const byWell = new Map(wells.map((w) => [w.well, w]));
    const given = new Map(body.results.map((r) => [r.well, r.result]));
    const problems: FieldError[] = [];
    body.results.forEach((r, i) => {
      if (!byWell.has(r.well)) problems.push({ field: `results.${i}.well`, message: `Well ${r.well} is empty on plate ${plate.name}` });
    });
    const missing = wells.filter((w) => w.controlKind !== 'null' && !given.has(w.well)).map((w) => w.well).sort((a, b) => wellOrder(a) - wellOrder(b));
    if (missing.length) problems.push({ field: 'results', message: `Enter a result for every sample and control: missing ${missing.join(', ')}` });
    if (problems.length) throw validationFailed(problems);

    const testIds = wells.flatMap((w) => (w.testId ? [w.testId] : []));
    const existing = testIds.length
      ? await m.TestResult.findAll({ where: { testId: testIds }, attributes: ['testId', 'version', 'status'], transaction, lock: transaction.LOCK.UPDATE })
      : [];
    for (const w of wells) {
      const result = given.get(w.well);
      if (result === undefined) continue;
      let testResultId: number | null = null;
      if (w.testId) {
        const versions = existing.filter((r) => r.testId === w.testId);
        if (versions.some((r) => r.status === TestResultStatus.InReview)) {
          throw conflict(`${w.well}: sample ${w.label} already has a result waiting for review`);
        }
        const created = await m.TestResult.create(
          {
            testId: w.testId,
            version: Math.max(0, ...versions.map((r) => r.version)) + 1,
            value: result,
            scale: 'covid',
            status: TestResultStatus.InReview,
            enteredByUserId: caller.userId,
          },
          { transaction },
        );
        testResultId = created.id;
      }
      await w.update({ result, testResultId }, { transaction });
    }
    const resultedAt = new Date();
    await plate.update({ status: PcrPlateStatus.Resulted, resultedByUserId: caller.userId, resultedAt }, { transaction });
    const check = plateControls(wells);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'pcr_plate.resulted', entityKind: null, entityId: null,
      details: { plateId: plate.id, results: given.size, controlsPassed: check.ok },
    }, transaction);
    return (await loadPlateView(ctx, plate.id, transaction))!;
  });
}

/**
 * For approval of COVID-19 PCR results: the plate each result was read on, and whether the
 * plate's controls passed (null for a result that was not read on a plate).
 */
export async function plateChecksForResults(ctx: Ctx, resultIds: number[], transaction?: Transaction) {
  const m = ctx.db.models;
  const map = new Map<number, { plateId: number; plateName: string; well: string; check: PcrControlCheck }>();
  if (!resultIds.length) return map;
  const resultWells = await m.PcrPlateWell.findAll({ where: { testResultId: { [Op.in]: resultIds } }, attributes: ['plateId', 'well', 'testResultId'], transaction });
  if (!resultWells.length) return map;
  const plateIds = [...new Set(resultWells.map((w) => w.plateId))];
  const plates = await m.PcrPlate.findAll({ where: { id: plateIds }, attributes: ['id', 'name'], transaction });
  const allWells = await m.PcrPlateWell.findAll({ where: { plateId: plateIds }, attributes: ['plateId', 'well', 'label', 'controlKind', 'result'], transaction });
  const checks = new Map(plateIds.map((id) => [id, plateControls(allWells.filter((w) => w.plateId === id))]));
  for (const w of resultWells) {
    map.set(w.testResultId!, { plateId: w.plateId, plateName: plates.find((p) => p.id === w.plateId)?.name ?? String(w.plateId), well: w.well, check: checks.get(w.plateId)! });
  }
  return map;
}

/**
 * The clinic's order: the account's physicians, the tests the Clinical Portal may order, and the
 * order itself: order, tests, sample (a new kit barcode) in Order Placed with its first timeline
 * event, the audit event and the requisition-form job, in one transaction.
 */
import { randomInt } from 'node:crypto';
import { Op, QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import {
  AccountRole, collectionTimeProblem, DIAGNOSIS_CODE_SYSTEM, DIAGNOSIS_REQUIRED_MESSAGE, diagnosisRequiredFor, formatDiagnosisCode, DocumentType, Portal, SampleStatus, TestOrigin, catalogueEntry, fullName, testsOrderableIn, type Attestations, type CatalogueOption,
  type ClinicOrderBody, type CreatedOrder, type PhysicianOption, type SampleType, type TestName,
} from '@platform/domain';
import type { Physician } from '@platform/db';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, type Caller, recordAudit } from '../audit';
import { createSample } from '../samples/move-sample';
import { enrolInProjects } from '../research/study-responses';
import { enqueueJob } from '../jobs/outbox';
import { badRequest, forbidden, notFound } from '../errors';
import { ICD10CM_EDITION, lookUpDiagnosisCodes } from '../diagnoses/icd10cm';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;

/** The account's physicians; `isCaller` marks the caller's own entry. */
export async function listPhysicians(ctx: Pick<ServerContext, 'db'>, caller: AccountCaller): Promise<PhysicianOption[]> {
  const { Physician } = ctx.db.models;
  const [physicians, contactId] = await Promise.all([
    Physician.findAll({ where: { accountId: caller.accountId }, order: [['lastName', 'ASC'], ['firstName', 'ASC'], ['id', 'ASC']] }),
    callerContactId(ctx, caller),
  ]);
  return physicians.map((p) => physicianOption(p, contactId));
}

async function callerContactId(ctx: Pick<ServerContext, 'db'>, caller: AccountCaller): Promise<number | null> {
  return (await ctx.db.models.Contact.findOne({ where: { userId: caller.userId }, attributes: ['id'] }))?.id ?? null;
}

const physicianOption = (p: Physician, callerContact: number | null): PhysicianOption => ({
  id: p.id, firstName: p.firstName, lastName: p.lastName, name: fullName(p), npi: p.npi, specialty: p.specialty,
  isCaller: p.contactId !== null && p.contactId === callerContact,
});

/**
 * The physicians a caller may order for (get-physicians-by-contact): a Physician under their own
 * name, Support Staff for the physicians they are linked to, a Super Admin for any of the account's.
 */
export async function physiciansForCaller(ctx: Pick<ServerContext, 'db'>, caller: AccountCaller, role: AccountRole): Promise<PhysicianOption[]> {
  const { Physician, ProviderStaffRelationship } = ctx.db.models;
  const contactId = await callerContactId(ctx, caller);
  let contactIds: number[] | null = null; // null: every physician of the account
  if (role === AccountRole.Physician) contactIds = contactId ? [contactId] : [];
  if (role === AccountRole.SupportStaff) {
    const links = contactId ? await ProviderStaffRelationship.findAll({ where: { accountId: caller.accountId, staffContactId: contactId }, attributes: ['physicianContactId'] }) : [];
    contactIds = links.map((l) => l.physicianContactId);
  }
  const physicians = await Physician.findAll({
    where: { accountId: caller.accountId, ...(contactIds ? { contactId: { [Op.in]: contactIds } } : {}) },
    order: [['lastName', 'ASC'], ['firstName', 'ASC'], ['id', 'ASC']],
  });
  return physicians.map((p) => physicianOption(p, contactId));
}

/** The tests a clinic may order (the catalogue's Clinical Portal list). */
export function clinicCatalogue(): CatalogueOption[] {
  return testsOrderableIn(Portal.Clinical).map((name) => {
    const e = catalogueEntry(name);
    return { name: e.name, parentType: e.parentType, research: e.research };
  });
}

/** Clinic order numbers: RF_ + 9 digits (SPEC §5). */
export const CLINIC_ORDER_PREFIX = 'RF_';
/** Kits issued by the platform: 41 + 12 digits (SPEC §5). */
export const ISSUED_KIT_PREFIX = '41';

/**
 * The next order id and its number, from the orders table's own sequence: unique and safe under
 * concurrency without a lock (nextval never hands the same value out twice).
 */
async function nextOrderIdentity(ctx: Ctx, transaction: Transaction): Promise<{ id: number; orderNumber: string }> {
  const [row] = await ctx.db.sequelize.query<{ id: string | number }>(`SELECT nextval(pg_get_serial_sequence('orders', 'id')) AS id`, {
    type: QueryTypes.SELECT,
    transaction,
  });
  const id = Number(row.id);
  if (id > 999_999_999) throw new Error('order numbers RF_ + 9 digits are exhausted');
  return { id, orderNumber: `${CLINIC_ORDER_PREFIX}${String(id).padStart(9, '0')}` };
}

/**
 * A new kit barcode: 41 + 12 random digits (random, so a mistyped barcode is very unlikely to be
 * another real kit), checked against the samples table; the unique index settles any race.
 */
export async function newKitBarcode(ctx: Ctx, transaction: Transaction): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const digits = `${randomInt(0, 1_000_000)}`.padStart(6, '0') + `${randomInt(0, 1_000_000)}`.padStart(6, '0');
    const barcode = `${ISSUED_KIT_PREFIX}${digits}`;
    const taken = await ctx.db.models.Sample.count({ where: { barcode }, transaction });
    if (!taken) return barcode;
  }
  throw new Error('could not find a free kit barcode');
}

/** The physician an order names: one of the account's, and one the caller may order for (403 otherwise). */
export async function orderingPhysician(ctx: Ctx, caller: AccountCaller, role: AccountRole, physicianId: number): Promise<Physician> {
  const physician = await ctx.db.models.Physician.findOne({ where: { id: physicianId, accountId: caller.accountId } });
  if (!physician) throw notFound('Physician not found in this account');
  if (!(await physiciansForCaller(ctx, caller, role)).some((p) => p.id === physician.id)) {
    throw forbidden(role === AccountRole.SupportStaff
      ? 'You may order only for the physicians you are linked to in this account'
      : 'A physician orders under their own name');
  }
  return physician;
}

/**
 * Runs one order's transaction; two orders that drew the same random barcode at the same moment
 * are told apart by the unique index, and the loser draws again (up to three times).
 */
export async function inOrderTransaction<T>(ctx: Ctx, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.sequelize.transaction(work);
    } catch (err) {
      if (err instanceof UniqueConstraintError && attempt < 3 && JSON.stringify(err.fields ?? {}).includes('barcode')) continue;
      throw err;
    }
  }
}

/** What a provider order writes, whichever portal placed it. */
export interface ProviderOrder {
  patientId: number;
  physicianId: number;
  portal: Portal;
  tests: TestName[];
  sampleType: SampleType;
  /** The attestations confirmed (those that apply in the portal). */
  attestations: Partial<Attestations>;
  /** The research project a Research Portal order is for. */
  researchProjectId?: number | null;
  /** When the clinic collected the sample, if it has already (else intake asks for it). */
  collectedAt?: Date | null;
  /** How an order that no user placed came (an EHR's HL7 order: the interface, its facility, the message), for the audit. */
  via?: Record<string, string>;
  /** ICD-10-CM codes checked against the code list, with their descriptions (clinic orders). */
  diagnoses?: { code: string; description: string }[];
}

/**
 * The rows of a provider order in the caller's transaction: the order (origin Provider Ordered),
 * its sample (a new kit) in Order Placed with the first step of its timeline, a test per name,
 * the audit event and the requisition-form job. The caller has checked the ids.
 */
export async function writeProviderOrder(ctx: Ctx, transaction: Transaction, caller: Caller & { accountId: number }, o: ProviderOrder): Promise<CreatedOrder> {
  const m = ctx.db.models;
  const { id, orderNumber } = await nextOrderIdentity(ctx, transaction);
  const order = await m.Order.create(
    {
      id,
      orderNumber,
      accountId: caller.accountId,
      patientId: o.patientId,
      physicianId: o.physicianId,
      origin: TestOrigin.ProviderOrdered,
      portal: o.portal,
      createdByUserId: caller.userId,
      researchProjectId: o.researchProjectId ?? null,
      diagnosisCodes: o.diagnoses ?? [],
      attestations: { ...o.attestations, confirmedAt: new Date().toISOString(), confirmedByUserId: caller.userId },
    },
    { transaction },
  );
  const sample = await createSample(
    ctx.db, transaction,
    { barcode: await newKitBarcode(ctx, transaction), sampleType: o.sampleType, accountId: caller.accountId, patientId: o.patientId, orderId: order.id, collectedAt: o.collectedAt ?? null },
    { by: caller },
  );
  const tests = [];
  for (const name of o.tests) {
    tests.push(await m.Test.create({ orderId: order.id, sampleId: sample.id, name, parentType: catalogueEntry(name).parentType }, { transaction }));
  }
  await recordAudit(
    ctx.db,
    {
      ...auditActor(caller),
      action: 'order.created',
      entityKind: 'sample',
      entityId: sample.id,
      details: { accountId: caller.accountId, orderId: order.id, patientId: o.patientId, physicianId: o.physicianId, tests: o.tests, portal: o.portal, ...(o.diagnoses?.length ? { diagnosisCount: o.diagnoses.length } : {}), ...(o.collectedAt ? { collectedAt: o.collectedAt.toISOString() } : {}), ...(o.via ? { via: o.via } : {}) },
    },
    transaction,
  );
  const job = await enqueueRequisitionForm(ctx, transaction, sample.id, caller.userId);
  return {
    order: { id: order.id, orderNumber, createdAt: order.createdAt.toISOString(), origin: order.origin, portal: order.portal },
    sample: { id: sample.id, barcode: sample.barcode, status: sample.status, sampleType: o.sampleType },
    tests: tests.map((t) => ({ id: t.id, name: t.name })),
    patientId: o.patientId,
    physicianId: o.physicianId,
    requisitionForm: { url: `/api/sample/${sample.barcode}/pdf_order`, jobId: job.jobRowId },
  };
}

/**
 * The one way a sample's test requisition form is queued (its render-pdf job, one per sample by
 * its idempotency key), in the caller's transaction: when a clinic places an order, and when a
 * physician signs off a patient's own order (the moment it has its ordering physician).
 */
export function enqueueRequisitionForm(ctx: Ctx, transaction: Transaction, sampleId: number, createdByUserId: number | null) {
  return enqueueJob(
    ctx,
    transaction,
    'render-pdf',
    { sampleId, documentType: DocumentType.TestRequisitionForm },
    { idempotencyKey: `requisition:${sampleId}`, createdByUserId },
  );
}

/**
 * An order's diagnosis codes, each one of the ICD-10-CM list (400 naming diagnosisCodes and the
 * code otherwise), at least one when a test is billed; kept with CMS's description as placed.
 */
export function orderDiagnoses(tests: readonly TestName[], codes: readonly string[]): { code: string; description: string }[] {
  const { found, unknown } = lookUpDiagnosisCodes(codes);
  if (unknown.length) {
    const message = `${unknown.map(formatDiagnosisCode).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not ${DIAGNOSIS_CODE_SYSTEM} code${unknown.length === 1 ? '' : 's'} of the ${ICD10CM_EDITION} list (a billable code has every character it needs: C61, Z85.46)`;
    throw badRequest(message, [{ field: 'diagnosisCodes', message }]);
  }
  if (!found.length && diagnosisRequiredFor(tests)) throw badRequest(DIAGNOSIS_REQUIRED_MESSAGE, [{ field: 'diagnosisCodes', message: DIAGNOSIS_REQUIRED_MESSAGE }]);
  return found.map((d) => ({ code: d.code, description: d.description }));
}

export async function createClinicOrder(ctx: Ctx & Pick<ServerContext, 'config'>, caller: AccountCaller, role: AccountRole, body: ClinicOrderBody): Promise<CreatedOrder> {
  // Every id from the client is checked against the account before anything is written.
  const patient = await ctx.db.models.Patient.findOne({ where: { id: body.patientId, accountId: caller.accountId, studyId: null } });
  if (!patient) throw notFound('Patient not found in this account');
  const physician = await orderingPhysician(ctx, caller, role, body.physicianId);
  // The clinic collects: when it already has, the collection time goes on the sample (the order is placed now).
  if (body.collectedAt) {
    const problem = collectionTimeProblem(body.collectedAt, { orderedAt: new Date(), timeZone: ctx.config.labTimeZone });
    if (problem) throw badRequest(problem, [{ field: 'collectedAt', message: problem }]);
  }
  const diagnoses = orderDiagnoses(body.tests, body.diagnosisCodes ?? []);
  return inOrderTransaction(ctx, async (transaction) => {
    const created = await writeProviderOrder(ctx, transaction, caller, {
      patientId: patient.id, physicianId: physician.id, portal: Portal.Clinical, tests: body.tests, sampleType: body.sampleType, attestations: body.attestations,
      collectedAt: body.collectedAt ?? null, diagnoses,
    });
    // A clinic taking part in a research project enrols the patient when it orders a test the project uses.
    await enrolInProjects(ctx, transaction, caller, patient.id, body.tests);
    return created;
  });
}

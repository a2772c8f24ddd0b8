/**
 * The Research Portal: the tests it may order, the order for a participant known by a study id
 * (the clinic's order rows, origin Provider Ordered, portal Research Portal, for one of the
 * account's research projects), the account's research tests, and the participant page. Every
 * read and write is scoped to the caller's account and audited (ids only).
 */
import { QueryTypes } from 'sequelize';
import {
  DocumentType, PROCESSING_STEP_TESTS, Portal, SampleStatus, catalogueEntry, patientLabel, testsOrderableIn, type AccountRole, type CatalogueOption,
  type CreatedResearchOrder, type ParticipantDetail, type ResearchOrderBody, type ResearchTestRow, type ResearchTestSortField, type ResearchTestsQuery,
} from '@platform/domain';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { badRequest, conflict, notFound } from '../errors';
import type { ServerContext } from '../context';
import { containsPattern } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';
import { inOrderTransaction, orderingPhysician, writeProviderOrder } from './orders';
import { patientSamples } from '../patients/clinic-patients';
import type { ResearchProject } from '@platform/db';
import { enrolInProjects, latestPublishedVersions, participantResponses, projectOfAccount } from '../research/study-responses';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;

/** The tests the Research Portal may order (the catalogue's list). */
export function researchCatalogue(): CatalogueOption[] {
  return testsOrderableIn(Portal.Research).map((name) => {
    const e = catalogueEntry(name);
    return { name: e.name, parentType: e.parentType, research: e.research };
  });
}

/**
 * POST order: a kit for the participant of the study id (created the first time the id is used in
 * the account, with no name and no date of birth), for one of the account's projects, which must
 * use every test ordered; the participant is enrolled in the project (an incomplete study response).
 */
export async function createResearchOrder(ctx: Ctx, caller: AccountCaller, role: AccountRole, body: ResearchOrderBody): Promise<CreatedResearchOrder> {
  const project = await projectOfAccount(ctx, caller.accountId, body.projectId);
  await refuseProjectNotOrderable(ctx, project);
  const outside = body.tests.filter((t) => !project.tests.includes(t));
  if (outside.length) {
    const message = `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not a test of ${project.name} (it uses ${project.tests.join(', ')})`;
    throw badRequest(message, [{ field: 'tests', message }]);
  }
  const physician = await orderingPhysician(ctx, caller, role, body.physicianId);
  const m = ctx.db.models;
  return inOrderTransaction(ctx, async (transaction) => {
    // One participant per study id in the account: the unique index settles two first orders at once.
    const [inserted] = await ctx.db.sequelize.query<{ id: number }>(
      `INSERT INTO patients (account_id, study_id, sex, created_at, updated_at) VALUES (:accountId, :studyId, :sex, now(), now())
       ON CONFLICT (account_id, study_id) WHERE study_id IS NOT NULL DO NOTHING RETURNING id`,
      { replacements: { accountId: caller.accountId, studyId: body.studyId, sex: body.sex }, type: QueryTypes.SELECT, transaction },
    );
    const participant = await m.Patient.findOne({ where: { accountId: caller.accountId, studyId: body.studyId }, transaction, rejectOnEmpty: true });
    if (inserted) {
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'participant.created', entityKind: 'patient', entityId: participant.id, details: { accountId: caller.accountId, projectId: project.id },
      }, transaction);
    } else if (body.sex && participant.sex !== body.sex) {
      await participant.update({ sex: body.sex }, { transaction });
    }
    const created = await writeProviderOrder(ctx, transaction, caller, {
      patientId: participant.id, physicianId: physician.id, portal: Portal.Research, tests: body.tests, sampleType: body.sampleType,
      attestations: body.attestations, researchProjectId: project.id,
    });
    const [response] = await enrolInProjects(ctx, transaction, caller, participant.id, body.tests, project.id);
    return {
      order: created.order,
      sample: created.sample,
      tests: created.tests,
      participant: { id: participant.id, studyId: body.studyId, created: Boolean(inserted) },
      studyResponseId: response.id,
      physicianId: physician.id,
      requisitionForm: created.requisitionForm,
    };
  });
}

/** A closed project takes no new orders; one with no published questionnaire cannot enrol its participant yet. */
async function refuseProjectNotOrderable(ctx: Ctx, project: ResearchProject): Promise<void> {
  if (project.closedAt) {
    const message = `${project.name} is closed: it takes no new orders`;
    throw conflict(message, [{ field: 'projectId', message }]);
  }
  if (!(await latestPublishedVersions(ctx, [project.id])).has(project.id)) {
    const message = `${project.name} has no published questionnaire yet: the lab publishes one before the project takes orders`;
    throw conflict(message, [{ field: 'projectId', message }]);
  }
}

/** When the sample first reached a final status (kept on the sample by a trigger). */
const RESULTED_AT = 's.resulted_at';

/** Whitelisted sort fields and their SQL (never the client's text). */
const SORT_SQL: Record<ResearchTestSortField, string[]> = {
  studyId: ['p.study_id'],
  barcode: ['s.barcode'],
  status: ['s.status'],
  project: ['lower(rp.name)'],
  orderedAt: ['s.created_at'],
  resultedAt: [RESULTED_AT],
};

/**
 * Only these sort on a value that may be NULL (a participant without a study id, a sample without a
 * project or not yet resulted) and name where NULLs go; a NOT NULL field sorted plainly keeps to its
 * index's order (`created_at DESC NULLS LAST` cannot use the newest-first index: every page sorted
 * the whole account).
 */
const NULLABLE_SORTS = new Set<ResearchTestSortField>(['studyId', 'project', 'resultedAt']);

interface RawRow {
  id: number;
  barcode: string;
  status: string;
  status_before_storage: string | null;
  rejection_reason: string | null;
  tests: string[] | null;
  order_number: string;
  patient_id: number;
  study_id: string | null;
  project_id: number | null;
  project_name: string | null;
  ordered_at: Date;
  resulted_at: Date | null;
  report_available: boolean;
}

/** GET tests: the account's Research Portal samples, filtered, sorted, one page and the total. */
export async function listResearchTests(ctx: Ctx, caller: AccountCaller, query: ResearchTestsQuery): Promise<{ rows: ResearchTestRow[]; total: number }> {
  const sort = query.sort ?? 'orderedAt';
  const order = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc' ? 'DESC' : 'ASC';
  const nulls = !NULLABLE_SORTS.has(sort) ? '' : order === 'DESC' ? ' NULLS LAST' : ' NULLS FIRST';
  const orderBy = [...SORT_SQL[sort].map((e) => `${e} ${order}${nulls}`), `s.id ${order}`].join(', ');
  const filters = ['s.account_id = :accountId', 'o.portal = :portal'];
  if (query.status) filters.push('s.status = :status');
  if (query.projectId) filters.push('o.research_project_id = :projectId');
  if (query.q) filters.push(`(p.study_id ILIKE :q OR s.barcode LIKE :q)`);
  const constants = { portal: Portal.Research, labReport: DocumentType.LabReport, processingSteps: [...PROCESSING_STEP_TESTS] };
  const replacements = {
    accountId: caller.accountId,
    status: query.status ?? null,
    projectId: query.projectId ?? null,
    q: query.q ? containsPattern(query.q) : null,
    limit: query.pageSize,
    offset: offsetOf(query.page, query.pageSize),
  };
  const where = `WHERE ${filters.join(' AND ')}`;
  const from = `FROM samples s JOIN orders o ON o.id = s.order_id JOIN patients p ON p.id = s.patient_id
                LEFT JOIN research_projects rp ON rp.id = o.research_project_id ${where}`;
  // The total reads the participant only when the search names a study id; the project never.
  const countFrom = `FROM samples s JOIN orders o ON o.id = s.order_id ${query.q ? 'JOIN patients p ON p.id = s.patient_id' : ''} ${where}`;
  const { rows: raw, total } = await auditedPage<RawRow>(ctx.db, {
    select: `SELECT s.id, s.barcode, s.status, s.status_before_storage, s.rejection_reason,
              (SELECT array_agg(t.name ORDER BY t.id) FROM tests t WHERE t.sample_id = s.id AND t.name NOT IN (:processingSteps)) AS tests,
              o.order_number, p.id AS patient_id, p.study_id, rp.id AS project_id, rp.name AS project_name,
              s.created_at AS ordered_at, ${RESULTED_AT} AS resulted_at,
              EXISTS (SELECT 1 FROM documents d WHERE d.sample_id = s.id AND d.type = :labReport AND d.superseded_at IS NULL) AS report_available
         ${from}
        ORDER BY ${orderBy}
        LIMIT :limit OFFSET :offset`,
    fromWhere: countFrom,
    replacements,
    constants,
    audit: { ...auditActor(caller), action: 'samples.listed', entityKind: 'sample', details: { accountId: caller.accountId, portal: Portal.Research, page: query.page } },
    idsKey: 'sampleIds',
  });
  const rows = raw.map((r): ResearchTestRow => ({
    sampleId: r.id,
    barcode: r.barcode,
    status: r.status,
    statusBeforeStorage: r.status_before_storage,
    rejectionReason: r.rejection_reason,
    tests: r.tests ?? [],
    orderNumber: r.order_number,
    participant: { id: r.patient_id, studyId: r.study_id },
    project: r.project_id ? { id: r.project_id, name: r.project_name! } : null,
    orderedAt: new Date(r.ordered_at).toISOString(),
    resultedAt: r.resulted_at ? new Date(r.resulted_at).toISOString() : null,
    reportAvailable: r.report_available,
  }));
  return { rows, total };
}

/** GET patient/{patientId}: a participant of the account (a study id), their samples and timelines, and their study responses. */
export async function getParticipant(ctx: Ctx, caller: AccountCaller, patientId: number): Promise<ParticipantDetail> {
  const participant = await ctx.db.models.Patient.findOne({ where: { id: patientId, accountId: caller.accountId } });
  if (!participant) throw notFound('Participant not found');
  const [samples, studyResponses] = await Promise.all([
    patientSamples(ctx, caller.accountId, participant.id),
    participantResponses(ctx, caller.accountId, participant.id),
  ]);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'patient.viewed', entityKind: 'patient', entityId: participant.id,
    details: { accountId: caller.accountId, portal: Portal.Research, sampleIds: samples.map((s) => s.id), studyResponseIds: studyResponses.map((r) => r.id) },
  });
  return {
    participant: { id: participant.id, studyId: participant.studyId, name: patientLabel(participant), sex: participant.sex, createdAt: participant.createdAt.toISOString() },
    samples,
    studyResponses,
  };
}

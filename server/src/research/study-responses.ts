/**
 * Research projects and study responses, for the Research Portal and for clinics taking part in
 * PROSTOX Research (the same service behind both portals' routes, always scoped to the caller's
 * account): the projects the account takes part in, enrolment of a participant in the open
 * projects that use the tests ordered (answering the project's latest published questionnaire
 * version), the list of responses with the number of incomplete participants, and the update of a
 * response's answers (checked by the domain's applyStudyAnswers against the version the response
 * was given under). Audit events carry ids and question keys only, never answers.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  applyStudyAnswers, isResponseComplete, missingAnswers, patientLabel, type QuestionnaireDefinition, type QuestionnaireVersionView, type ResearchProjectView,
  type StudyAnswers, type StudyResponseSortField, type StudyResponsesQuery, type StudyResponseView, type UpdateStudyResponseBody,
} from '@platform/domain';
import type { Patient, QuestionnaireVersion, ResearchProject, StudyResponse, User } from '@platform/db';
import { type AccountCaller, auditActor, type Caller, recordAudit } from '../audit';
import { notFound, validationFailed } from '../errors';
import type { ServerContext } from '../context';
import { offsetOf } from '../paging';

type Ctx = Pick<ServerContext, 'db'>;

/** A where clause on research_projects: the projects the account takes part in. */
export function takingPartWhere(ctx: Ctx, accountId: number) {
  return { id: { [Op.in]: ctx.db.sequelize.literal(`(SELECT research_project_id FROM research_project_accounts WHERE account_id = ${ctx.db.sequelize.escape(accountId)})`) } };
}

/** The latest published version of each project named (projects with none are left out). */
export async function latestPublishedVersions(ctx: Ctx, projectIds: readonly number[], transaction?: Transaction): Promise<Map<number, QuestionnaireVersion>> {
  if (projectIds.length === 0) return new Map();
  const rows = await ctx.db.models.QuestionnaireVersion.findAll({
    where: { researchProjectId: [...projectIds], publishedAt: { [Op.ne]: null } },
    order: [['researchProjectId', 'ASC'], ['version', 'DESC']],
    transaction,
  });
  const latest = new Map<number, QuestionnaireVersion>();
  for (const v of rows) if (!latest.has(v.researchProjectId)) latest.set(v.researchProjectId, v);
  return latest;
}

export const definitionOf = (v: QuestionnaireVersion) => v.definition as unknown as QuestionnaireDefinition;
export const versionView = (v: QuestionnaireVersion): QuestionnaireVersionView => ({ id: v.id, version: v.version, definition: definitionOf(v) });

/** The projects the account takes part in, with how many of its participants each has and how many are incomplete. */
export async function listProjects(ctx: Ctx, caller: AccountCaller): Promise<ResearchProjectView[]> {
  const projects = await ctx.db.models.ResearchProject.findAll({ where: takingPartWhere(ctx, caller.accountId), order: [['name', 'ASC'], ['id', 'ASC']] });
  const ids = projects.map((p) => p.id);
  const [counts, versions] = await Promise.all([
    ids.length
      ? ctx.db.sequelize.query<{ research_project_id: number; participants: number; incomplete: number }>(
        `SELECT r.research_project_id, count(*)::int AS participants, count(*) FILTER (WHERE NOT r.complete)::int AS incomplete
           FROM study_responses r JOIN patients pt ON pt.id = r.patient_id AND pt.account_id = :accountId
          WHERE r.research_project_id IN (:ids) GROUP BY r.research_project_id`,
        { replacements: { ids, accountId: caller.accountId }, type: QueryTypes.SELECT },
      )
      : [],
    latestPublishedVersions(ctx, ids),
  ]);
  return projects.map((p) => {
    const c = counts.find((x) => Number(x.research_project_id) === p.id);
    const v = versions.get(p.id);
    return {
      id: p.id, name: p.name, protocol: p.protocol, consentDocument: p.consentDocument, tests: p.tests,
      questionnaire: v ? { id: v.id, version: v.version, title: definitionOf(v).title } : null,
      closedAt: p.closedAt?.toISOString() ?? null, participants: c?.participants ?? 0, incomplete: c?.incomplete ?? 0,
    };
  });
}

/** A project the account takes part in, of an id from the client, or the 404 of one it does not. */
export async function projectOfAccount(ctx: Ctx, accountId: number, projectId: number, transaction?: Transaction): Promise<ResearchProject> {
  const project = await ctx.db.models.ResearchProject.findOne({ where: { [Op.and]: [{ id: projectId }, takingPartWhere(ctx, accountId)] }, transaction });
  if (!project) throw notFound('Research project not found in this account');
  return project;
}

/**
 * Enrols the patient in the open projects the account takes part in that use one of the tests
 * ordered (or in the one project named, whose order checked it is open): an empty, incomplete
 * study response each, answering the project's latest published version, unless one exists (it
 * keeps its version). A project with no published version enrols no one. Returns the responses.
 */
export async function enrolInProjects(
  ctx: Ctx,
  transaction: Transaction,
  caller: Caller & { accountId: number },
  patientId: number,
  tests: readonly string[],
  projectId?: number,
): Promise<StudyResponse[]> {
  const m = ctx.db.models;
  const projects = await m.ResearchProject.findAll({
    where: { [Op.and]: [projectId ? { id: projectId } : { tests: { [Op.overlap]: [...tests] }, closedAt: null }, takingPartWhere(ctx, caller.accountId)] },
    transaction,
  });
  const versions = await latestPublishedVersions(ctx, projects.map((p) => p.id), transaction);
  const responses: StudyResponse[] = [];
  for (const project of projects) {
    const version = versions.get(project.id);
    if (!version) continue;
    const [response, created] = await m.StudyResponse.findOrCreate({
      where: { researchProjectId: project.id, patientId },
      defaults: { researchProjectId: project.id, questionnaireVersionId: version.id, patientId, answers: {}, complete: false, updatedByUserId: caller.userId },
      transaction,
    });
    if (created) {
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'study_response.created', entityKind: 'patient', entityId: patientId,
        details: { accountId: caller.accountId, projectId: project.id, studyResponseId: response.id, questionnaireVersion: version.version },
      }, transaction);
    }
    responses.push(response);
  }
  return responses;
}

type ResponseRow = StudyResponse & { project: ResearchProject; questionnaireVersion: QuestionnaireVersion; patient: Patient; updatedBy: User | null };

function responseView(r: ResponseRow): StudyResponseView {
  const answers = r.answers as StudyAnswers;
  return {
    id: r.id,
    project: { id: r.project.id, name: r.project.name },
    questionnaire: versionView(r.questionnaireVersion),
    participant: { id: r.patient.id, studyId: r.patient.studyId, name: patientLabel(r.patient), sex: r.patient.sex },
    answers,
    complete: r.complete,
    missing: missingAnswers(definitionOf(r.questionnaireVersion), answers).map((q) => q.key),
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: r.updatedBy ? `${r.updatedBy.firstName} ${r.updatedBy.lastName}` : null,
  };
}

// The account's participants' responses (kept when the account later leaves the project).
const includes = (ctx: Ctx, accountId: number) => [
  { model: ctx.db.models.ResearchProject, as: 'project', required: true },
  { model: ctx.db.models.QuestionnaireVersion, as: 'questionnaireVersion', required: true },
  { model: ctx.db.models.Patient, as: 'patient', where: { accountId }, required: true },
  { model: ctx.db.models.User, as: 'updatedBy', attributes: ['id', 'firstName', 'lastName'], required: false },
];

/** Whitelisted sort fields (never the client's text). */
function sortOrder(ctx: Ctx, field: StudyResponseSortField, d: 'ASC' | 'DESC'): unknown[] {
  const patient = { model: ctx.db.models.Patient, as: 'patient' };
  const project = { model: ctx.db.models.ResearchProject, as: 'project' };
  switch (field) {
    case 'participant': return [[patient, 'studyId', d], [patient, 'lastName', d], [patient, 'firstName', d]];
    case 'project': return [[project, 'name', d]];
    case 'updatedAt': return [['updatedAt', d]];
    // Incomplete first (false before true), the most recently changed first within each.
    case 'complete': return [['complete', d], ['updatedAt', 'DESC']];
  }
}

/** The number of the account's participants with an incomplete response (in one project when named): x-total-incomplete-count. */
export async function incompleteParticipants(ctx: Ctx, accountId: number, projectId?: number): Promise<number> {
  const [{ n }] = await ctx.db.sequelize.query<{ n: number }>(
    `SELECT count(DISTINCT r.patient_id)::int AS n FROM study_responses r JOIN patients pt ON pt.id = r.patient_id
      WHERE pt.account_id = :accountId AND NOT r.complete ${projectId ? 'AND r.research_project_id = :projectId' : ''}`,
    { replacements: { accountId, projectId: projectId ?? null }, type: QueryTypes.SELECT },
  );
  return n;
}

/** One page of the account's study responses (incomplete first by default), the total and the incomplete participants. */
export async function listStudyResponses(
  ctx: Ctx,
  caller: AccountCaller,
  query: StudyResponsesQuery,
): Promise<{ rows: StudyResponseView[]; total: number; incompleteParticipants: number }> {
  const m = ctx.db.models;
  const where = {
    ...(query.projectId ? { researchProjectId: query.projectId } : {}),
    ...(query.patientId ? { patientId: query.patientId } : {}),
    ...(query.incomplete === undefined ? {} : { complete: !query.incomplete }),
  };
  const dir = (query.order ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
  const order = query.sort ? sortOrder(ctx, query.sort, dir) : sortOrder(ctx, 'complete', 'ASC');
  const [{ rows, count }, incomplete] = await Promise.all([
    m.StudyResponse.findAndCountAll({
      where,
      include: includes(ctx, caller.accountId),
      order: [...order, ['id', 'ASC']] as never,
      limit: query.pageSize,
      offset: offsetOf(query.page, query.pageSize),
      distinct: true,
    }),
    incompleteParticipants(ctx, caller.accountId, query.projectId),
  ]);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'study_responses.listed', entityKind: 'patient',
    details: { accountId: caller.accountId, projectId: query.projectId ?? null, page: query.page, total: count, studyResponseIds: rows.map((r) => r.id) },
  });
  return { rows: (rows as ResponseRow[]).map(responseView), total: count, incompleteParticipants: incomplete };
}

/** The study responses of one participant of the account (the participant page); audited by the caller's read. */
export async function participantResponses(ctx: Ctx, accountId: number, patientId: number): Promise<StudyResponseView[]> {
  const rows = await ctx.db.models.StudyResponse.findAll({
    where: { patientId },
    include: includes(ctx, accountId),
    order: [[{ model: ctx.db.models.ResearchProject, as: 'project' }, 'name', 'ASC'], ['id', 'ASC']],
  });
  return (rows as ResponseRow[]).map(responseView);
}

/**
 * POST study-responses/{id}/update: the answers given change (null clears one), each checked
 * against the project's questionnaire; the response is complete once every required answer is in.
 * Another account's response is not found.
 */
export async function updateStudyResponse(ctx: Ctx, caller: AccountCaller, id: number, body: UpdateStudyResponseBody): Promise<StudyResponseView> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const found = await m.StudyResponse.findOne({
      where: { id },
      include: [{ model: m.Patient, as: 'patient', where: { accountId: caller.accountId }, required: true }],
      transaction,
    });
    if (!found) throw notFound('Study response not found');
    // Lock the row (a plain lock: the joined rows are not changed) so two updates apply one after the other.
    await m.StudyResponse.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
    await found.reload({
      transaction,
      include: [{ model: m.ResearchProject, as: 'project' }, { model: m.QuestionnaireVersion, as: 'questionnaireVersion' }, { model: m.Patient, as: 'patient' }],
    });
    // The version the response was given under, whatever the project published since.
    const definition = definitionOf(found.questionnaireVersion!);
    const { answers, problems } = applyStudyAnswers(definition, found.answers, body.answers);
    if (problems.length) throw validationFailed(problems);
    const complete = isResponseComplete(definition, answers);
    await found.update({ answers, complete, updatedByUserId: caller.userId }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'study_response.updated', entityKind: 'patient', entityId: found.patientId,
      details: { accountId: caller.accountId, studyResponseId: found.id, projectId: found.researchProjectId, changed: Object.keys(body.answers), complete },
    }, transaction);
    const updatedBy = await m.User.findByPk(caller.userId, { attributes: ['id', 'firstName', 'lastName'], transaction });
    return responseView(Object.assign(found, { updatedBy }) as ResponseRow);
  });
}

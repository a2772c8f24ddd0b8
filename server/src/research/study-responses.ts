/**
 * Research projects and study responses, for the Research Portal and for clinics taking part in
 * PROSTOX Research (the same service behind both portals' routes, always scoped to the caller's
 * account): the account's projects, enrolment of a participant in the projects that use the tests
 * ordered, the list of responses with the number of incomplete participants, and the update of a
 * response's answers (checked against its project's questionnaire, kept as data in domain/).
 * Audit events carry ids and question keys only, never answers.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  applyStudyAnswers, isResponseComplete, missingAnswers, patientLabel, studyQuestionnaire, type ResearchProjectView, type StudyAnswers,
  type StudyResponseSortField, type StudyResponsesQuery, type StudyResponseView, type UpdateStudyResponseBody,
} from '@platform/domain';
import type { Patient, ResearchProject, StudyResponse, User } from '@platform/db';
import { type AccountCaller, auditActor, type Caller, recordAudit } from '../audit';
import { notFound, validationFailed } from '../errors';
import type { ServerContext } from '../context';
import { offsetOf } from '../paging';

type Ctx = Pick<ServerContext, 'db'>;

/** The account's research projects with how many participants each has and how many are incomplete. */
export async function listProjects(ctx: Ctx, caller: AccountCaller): Promise<ResearchProjectView[]> {
  const projects = await ctx.db.models.ResearchProject.findAll({ where: { accountId: caller.accountId }, order: [['name', 'ASC'], ['id', 'ASC']] });
  const counts = projects.length
    ? await ctx.db.sequelize.query<{ research_project_id: number; participants: number; incomplete: number }>(
      `SELECT research_project_id, count(*)::int AS participants, count(*) FILTER (WHERE NOT complete)::int AS incomplete
         FROM study_responses WHERE research_project_id IN (:ids) GROUP BY research_project_id`,
      { replacements: { ids: projects.map((p) => p.id) }, type: QueryTypes.SELECT },
    )
    : [];
  return projects.map((p) => {
    const c = counts.find((x) => Number(x.research_project_id) === p.id);
    const q = studyQuestionnaire(p.questionnaire);
    return {
      id: p.id, name: p.name, protocol: p.protocol, consentDocument: p.consentDocument, tests: p.tests,
      questionnaire: { id: q.id, title: q.title }, participants: c?.participants ?? 0, incomplete: c?.incomplete ?? 0,
    };
  });
}

/** The account's project of an id from the client, or the 404 of one that is not the account's. */
export async function projectOfAccount(ctx: Ctx, accountId: number, projectId: number, transaction?: Transaction): Promise<ResearchProject> {
  const project = await ctx.db.models.ResearchProject.findOne({ where: { id: projectId, accountId }, transaction });
  if (!project) throw notFound('Research project not found in this account');
  return project;
}

/**
 * Enrols the patient in the account's projects that use one of the tests ordered (or in the one
 * project named): an empty, incomplete study response each, unless one exists. Returns the
 * responses of those projects.
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
    where: projectId ? { id: projectId, accountId: caller.accountId } : { accountId: caller.accountId, tests: { [Op.overlap]: [...tests] } },
    transaction,
  });
  const responses: StudyResponse[] = [];
  for (const project of projects) {
    const [response, created] = await m.StudyResponse.findOrCreate({
      where: { researchProjectId: project.id, patientId },
      defaults: { researchProjectId: project.id, patientId, answers: {}, complete: false, updatedByUserId: caller.userId },
      transaction,
    });
    if (created) {
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'study_response.created', entityKind: 'patient', entityId: patientId,
        details: { accountId: caller.accountId, projectId: project.id, studyResponseId: response.id },
      }, transaction);
    }
    responses.push(response);
  }
  return responses;
}

type ResponseRow = StudyResponse & { project: ResearchProject; patient: Patient; updatedBy: User | null };

function responseView(r: ResponseRow): StudyResponseView {
  const questionnaire = studyQuestionnaire(r.project.questionnaire);
  const answers = r.answers as StudyAnswers;
  return {
    id: r.id,
    project: { id: r.project.id, name: r.project.name, questionnaireId: questionnaire.id },
    participant: { id: r.patient.id, studyId: r.patient.studyId, name: patientLabel(r.patient), sex: r.patient.sex },
    answers,
    complete: r.complete,
    missing: missingAnswers(questionnaire, answers).map((q) => q.key),
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: r.updatedBy ? `${r.updatedBy.firstName} ${r.updatedBy.lastName}` : null,
  };
}

const includes = (ctx: Ctx, accountId: number) => [
  { model: ctx.db.models.ResearchProject, as: 'project', where: { accountId }, required: true },
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
    `SELECT count(DISTINCT r.patient_id)::int AS n FROM study_responses r JOIN research_projects p ON p.id = r.research_project_id
      WHERE p.account_id = :accountId AND NOT r.complete ${projectId ? 'AND p.id = :projectId' : ''}`,
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
      include: [
        { model: m.ResearchProject, as: 'project', where: { accountId: caller.accountId }, required: true },
        { model: m.Patient, as: 'patient', where: { accountId: caller.accountId }, required: true },
      ],
      transaction,
    });
    if (!found) throw notFound('Study response not found');
    // Lock the row (a plain lock: the joined rows are not changed) so two updates apply one after the other.
    await m.StudyResponse.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
    await found.reload({ transaction, include: [{ model: m.ResearchProject, as: 'project' }, { model: m.Patient, as: 'patient' }] });
    const questionnaire = studyQuestionnaire(found.project!.questionnaire);
    const { answers, problems } = applyStudyAnswers(questionnaire, found.answers, body.answers);
    if (problems.length) throw validationFailed(problems);
    const complete = isResponseComplete(questionnaire, answers);
    await found.update({ answers, complete, updatedByUserId: caller.userId }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'study_response.updated', entityKind: 'patient', entityId: found.patientId,
      details: { accountId: caller.accountId, studyResponseId: found.id, projectId: found.researchProjectId, changed: Object.keys(body.answers), complete },
    }, transaction);
    const updatedBy = await m.User.findByPk(caller.userId, { attributes: ['id', 'firstName', 'lastName'], transaction });
    return responseView(Object.assign(found, { updatedBy }) as ResponseRow);
  });
}

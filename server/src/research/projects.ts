/**
 * The lab's admin runs research projects (issue 31, item 3): a project (name, protocol, consent
 * document, the accounts taking part, the tests it orders), its questionnaire in versions (one
 * draft the form builder saves, checked by the domain's describeDefinitionProblems; publishing makes
 * it a version that never changes and that new participants answer), and closing it (no new
 * orders; its participants, responses and results kept). One transaction per command; every change
 * audited with its old and new values (a questionnaire holds no patient data).
 */
import { Op, QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import {
  describeDefinitionProblems, type AdminQuestionnaireVersion, type AdminResearchProjectRow, type AdminResearchProjectView, type QuestionnaireDraftBody,
  type ResearchProjectBody,
} from '@platform/domain';
import type { QuestionnaireVersion, ResearchProject, User } from '@platform/db';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, notFound, validationFailed } from '../errors';
import type { ServerContext } from '../context';
import { definitionOf } from './study-responses';

type Ctx = Pick<ServerContext, 'db'>;

const nameOf = (u: User | null | undefined) => (u ? `${u.firstName} ${u.lastName}` : null);

async function projectAccounts(ctx: Ctx, projectIds: readonly number[], transaction?: Transaction) {
  if (projectIds.length === 0) return [];
  return ctx.db.sequelize.query<{ research_project_id: number; id: number; name: string }>(
    `SELECT pa.research_project_id, a.id, a.name FROM research_project_accounts pa JOIN accounts a ON a.id = pa.account_id
      WHERE pa.research_project_id IN (:ids) ORDER BY a.name, a.id`,
    { replacements: { ids: projectIds }, type: QueryTypes.SELECT, transaction },
  );
}

async function projectFigures(ctx: Ctx, projectIds: readonly number[], transaction?: Transaction) {
  if (projectIds.length === 0) return [];
  return ctx.db.sequelize.query<{ id: number; published: number | null; drafts: number; participants: number }>(
    `SELECT p.id,
            (SELECT max(v.version) FROM questionnaire_versions v WHERE v.research_project_id = p.id AND v.published_at IS NOT NULL) AS published,
            (SELECT count(*) FROM questionnaire_versions v WHERE v.research_project_id = p.id AND v.published_at IS NULL)::int AS drafts,
            (SELECT count(*) FROM study_responses r WHERE r.research_project_id = p.id)::int AS participants
       FROM research_projects p WHERE p.id IN (:ids)`,
    { replacements: { ids: projectIds }, type: QueryTypes.SELECT, transaction },
  );
}

async function projectRows(ctx: Ctx, projects: ResearchProject[], transaction?: Transaction): Promise<AdminResearchProjectRow[]> {
  const ids = projects.map((p) => p.id);
  // One after the other: inside a transaction the queries share one connection.
  const accounts = await projectAccounts(ctx, ids, transaction);
  const figures = await projectFigures(ctx, ids, transaction);
  return projects.map((p) => {
    const f = figures.find((x) => Number(x.id) === p.id);
    return {
      id: p.id, name: p.name, tests: p.tests,
      accounts: accounts.filter((a) => Number(a.research_project_id) === p.id).map((a) => ({ id: Number(a.id), name: a.name })),
      publishedVersion: f?.published ?? null, hasDraft: (f?.drafts ?? 0) > 0, participants: f?.participants ?? 0,
      closedAt: p.closedAt?.toISOString() ?? null, createdAt: p.createdAt.toISOString(),
    };
  });
}

/** GET /api/admin/research-projects: every project, open ones first, by name. */
export async function listResearchProjects(ctx: Ctx): Promise<AdminResearchProjectRow[]> {
  const projects = await ctx.db.models.ResearchProject.findAll({
    order: [[ctx.db.sequelize.literal('closed_at IS NOT NULL'), 'ASC'], ['name', 'ASC'], ['id', 'ASC']],
  });
  return projectRows(ctx, projects);
}

/** GET /api/admin/research-projects/{id}: the project with every version, newest first. */
export async function researchProjectDetail(ctx: Ctx, id: number, transaction?: Transaction): Promise<AdminResearchProjectView> {
  const m = ctx.db.models;
  const project = await m.ResearchProject.findByPk(id, { include: [{ model: m.User, as: 'closedBy', attributes: ['id', 'firstName', 'lastName'] }], transaction });
  if (!project) throw notFound('Research project not found');
  const [row] = await projectRows(ctx, [project], transaction);
  const versions = await m.QuestionnaireVersion.findAll({
    where: { researchProjectId: id }, include: [{ model: m.User, as: 'publishedBy', attributes: ['id', 'firstName', 'lastName'] }], order: [['version', 'DESC']], transaction,
  });
  const responses = await ctx.db.sequelize.query<{ questionnaire_version_id: number; n: number }>(
    'SELECT questionnaire_version_id, count(*)::int AS n FROM study_responses WHERE research_project_id = :id GROUP BY questionnaire_version_id',
    { replacements: { id }, type: QueryTypes.SELECT, transaction },
  );
  const versionRow = (v: QuestionnaireVersion): AdminQuestionnaireVersion => ({
    id: v.id, version: v.version, definition: definitionOf(v), publishedAt: v.publishedAt?.toISOString() ?? null, publishedBy: nameOf(v.publishedBy),
    responses: responses.find((r) => Number(r.questionnaire_version_id) === v.id)?.n ?? 0, updatedAt: v.updatedAt.toISOString(),
  });
  return { ...row, protocol: project.protocol, consentDocument: project.consentDocument, closedBy: nameOf(project.closedBy), versions: versions.map(versionRow) };
}

const projectValues = (p: ResearchProject, accountIds: readonly number[]) => ({
  name: p.name, protocol: p.protocol, consentDocument: p.consentDocument, tests: [...p.tests], accountIds: [...accountIds].sort((a, b) => a - b),
});

/** Every account named exists (else a 400 naming each that does not). */
async function checkAccounts(ctx: Ctx, accountIds: readonly number[], transaction: Transaction): Promise<void> {
  const found = await ctx.db.models.Account.findAll({ where: { id: [...accountIds] }, attributes: ['id'], transaction });
  const problems = accountIds.flatMap((id, i) => (found.some((a) => a.id === id) ? [] : [{ field: `accountIds.${i}`, message: `Account ${id} not found` }]));
  if (problems.length) throw validationFailed(problems);
}

/** The name is taken: a 409 naming the field (the unique index settles two at once). */
async function withNameChecked<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintError) {
      const message = `A research project named ${name} already exists`;
      throw conflict(message, [{ field: 'name', message }]);
    }
    throw err;
  }
}

async function setAccounts(ctx: Ctx, projectId: number, accountIds: readonly number[], transaction: Transaction): Promise<void> {
  const m = ctx.db.models;
  await m.ResearchProjectAccount.destroy({ where: { researchProjectId: projectId, accountId: { [Op.notIn]: [...accountIds] } }, transaction });
  await m.ResearchProjectAccount.bulkCreate(accountIds.map((accountId) => ({ researchProjectId: projectId, accountId })), { ignoreDuplicates: true, transaction });
}

/** POST /api/admin/research-projects: a new open project with its accounts; its questionnaire comes from the builder. */
export async function createResearchProject(ctx: Ctx, caller: UserCaller, body: ResearchProjectBody): Promise<AdminResearchProjectView> {
  return withNameChecked(body.name, () => ctx.db.sequelize.transaction(async (transaction) => {
    await checkAccounts(ctx, body.accountIds, transaction);
    const project = await ctx.db.models.ResearchProject.create(
      { name: body.name, protocol: body.protocol, consentDocument: body.consentDocument, tests: body.tests },
      { transaction },
    );
    await setAccounts(ctx, project.id, body.accountIds, transaction);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'research_project.created', entityKind: 'research_project', entityId: project.id,
      details: { old: null, new: projectValues(project, body.accountIds) },
    }, transaction);
    return researchProjectDetail(ctx, project.id, transaction);
  }));
}

/** The project of an id, locked for the change; a closed one refuses changes (409). */
async function openProjectForUpdate(ctx: Ctx, id: number, transaction: Transaction): Promise<ResearchProject> {
  const project = await ctx.db.models.ResearchProject.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
  if (!project) throw notFound('Research project not found');
  if (project.closedAt) throw conflict(`${project.name} is closed: it no longer changes`);
  return project;
}

async function accountIdsOf(ctx: Ctx, projectId: number, transaction: Transaction): Promise<number[]> {
  const rows = await ctx.db.models.ResearchProjectAccount.findAll({ where: { researchProjectId: projectId }, transaction });
  return rows.map((r) => r.accountId as number);
}

/** PUT /api/admin/research-projects/{id}: name, documents, accounts and tests (participants already enrolled keep their responses). */
export async function updateResearchProject(ctx: Ctx, caller: UserCaller, id: number, body: ResearchProjectBody): Promise<AdminResearchProjectView> {
  return withNameChecked(body.name, () => ctx.db.sequelize.transaction(async (transaction) => {
    const project = await openProjectForUpdate(ctx, id, transaction);
    await checkAccounts(ctx, body.accountIds, transaction);
    const old = projectValues(project, await accountIdsOf(ctx, id, transaction));
    await project.update({ name: body.name, protocol: body.protocol, consentDocument: body.consentDocument, tests: body.tests }, { transaction });
    await setAccounts(ctx, id, body.accountIds, transaction);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'research_project.updated', entityKind: 'research_project', entityId: id,
      details: { old, new: projectValues(project, body.accountIds) },
    }, transaction);
    return researchProjectDetail(ctx, id, transaction);
  }));
}

/**
 * PUT /api/admin/research-projects/{id}/questionnaire/draft: the draft's definition (a new draft,
 * numbered after the last version, when there is none). Each problem is a 400 naming its field
 * (`definition.questions.2.label`).
 */
export async function saveQuestionnaireDraft(ctx: Ctx, caller: UserCaller, id: number, body: QuestionnaireDraftBody): Promise<AdminResearchProjectView> {
  const problems = describeDefinitionProblems(body.definition);
  if (problems.length) throw validationFailed(problems.map((p) => ({ field: p.field ? `definition.${p.field}` : 'definition', message: p.message })));
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    await openProjectForUpdate(ctx, id, transaction);
    const draft = await m.QuestionnaireVersion.findOne({ where: { researchProjectId: id, publishedAt: null }, transaction });
    const old = draft ? { version: draft.version, definition: draft.definition } : null;
    let saved: QuestionnaireVersion;
    if (draft) saved = await draft.update({ definition: { ...body.definition } }, { transaction });
    else {
      const last = (await m.QuestionnaireVersion.max<number, QuestionnaireVersion>('version', { where: { researchProjectId: id }, transaction })) ?? 0;
      saved = await m.QuestionnaireVersion.create({ researchProjectId: id, version: last + 1, definition: { ...body.definition }, createdByUserId: caller.userId }, { transaction });
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'questionnaire_draft.saved', entityKind: 'research_project', entityId: id,
      details: { old, new: { version: saved.version, definition: saved.definition } },
    }, transaction);
    return researchProjectDetail(ctx, id, transaction);
  });
}

/** POST /api/admin/research-projects/{id}/questionnaire/publish: the draft becomes a version that never changes; new participants answer it. */
export async function publishQuestionnaireDraft(ctx: Ctx, caller: UserCaller, id: number): Promise<AdminResearchProjectView> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    await openProjectForUpdate(ctx, id, transaction);
    const draft = await m.QuestionnaireVersion.findOne({ where: { researchProjectId: id, publishedAt: null }, transaction });
    if (!draft) throw conflict('There is no draft to publish: save the questionnaire first');
    // Checked again: a draft is only ever saved checked, but a published version is for good.
    const problems = describeDefinitionProblems(draft.definition);
    if (problems.length) throw validationFailed(problems.map((p) => ({ field: `definition.${p.field}`, message: p.message })));
    await draft.update({ publishedAt: new Date(), publishedByUserId: caller.userId }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'questionnaire_version.published', entityKind: 'research_project', entityId: id,
      details: { versionId: draft.id, version: draft.version, old: { publishedAt: null }, new: { publishedAt: draft.publishedAt!.toISOString() } },
    }, transaction);
    return researchProjectDetail(ctx, id, transaction);
  });
}

/** POST /api/admin/research-projects/{id}/close: no new orders or enrolments; everything already there is kept and can still be completed. */
export async function closeResearchProject(ctx: Ctx, caller: UserCaller, id: number): Promise<AdminResearchProjectView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const project = await openProjectForUpdate(ctx, id, transaction);
    await project.update({ closedAt: new Date(), closedByUserId: caller.userId }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'research_project.closed', entityKind: 'research_project', entityId: id,
      details: { old: { closedAt: null }, new: { closedAt: project.closedAt!.toISOString() } },
    }, transaction);
    return researchProjectDetail(ctx, id, transaction);
  });
}

/**
 * The lab's admin runs research projects and their questionnaires (issue 31, item 3; mounted at
 * /api/admin by admin.routes.ts, behind requireUser('admin')):
 *   GET  /research-projects                               every project (open first)
 *   POST /research-projects                               { name, protocol, consentDocument, accountIds, tests }: 201, a new open project
 *   GET  /research-projects/{id}                          the project with every questionnaire version, newest first
 *   PUT  /research-projects/{id}                          the project's fields and accounts (a closed one: 409)
 *   PUT  /research-projects/{id}/questionnaire/draft      { definition }: the draft the builder saves (400 naming each field)
 *   POST /research-projects/{id}/questionnaire/publish    the draft becomes a version that never changes
 *   POST /research-projects/{id}/close                    no new orders; the data kept
 * Every change is audited with its old and new values (server/src/research/projects.ts).
 */
import { Router, type Request } from 'express';
import { AdminResearchProjectRow, AdminResearchProjectView, questionnaireDraftBody, researchProjectBody, shapes } from '@platform/domain';
import {
  closeResearchProject, createResearchProject, listResearchProjects, publishQuestionnaireDraft, researchProjectDetail, saveQuestionnaireDraft, updateResearchProject,
} from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';

export function adminResearchRouter(ctx: AppContext): Router {
  const router = Router();
  const base = '/research-projects';
  const projectId = (req: Request) => pathId(req.params.projectId, 'Research project');
  router.get(base, answers(200, shapes.array(AdminResearchProjectRow)), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listResearchProjects(ctx));
  });
  router.post(base, validateBody(researchProjectBody), answers(201, AdminResearchProjectView), async (req, res) => {
    res.status(201).json(await createResearchProject(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${base}/:projectId`, answers(200, AdminResearchProjectView), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await researchProjectDetail(ctx, projectId(req)));
  });
  router.put(`${base}/:projectId`, validateBody(researchProjectBody), answers(200, AdminResearchProjectView), async (req, res) => {
    res.json(await updateResearchProject(ctx, userCallerOf(req, res), projectId(req), req.body));
  });
  router.put(`${base}/:projectId/questionnaire/draft`, validateBody(questionnaireDraftBody), answers(200, AdminResearchProjectView), async (req, res) => {
    res.json(await saveQuestionnaireDraft(ctx, userCallerOf(req, res), projectId(req), req.body));
  });
  router.post(`${base}/:projectId/questionnaire/publish`, answers(200, AdminResearchProjectView), async (req, res) => {
    res.json(await publishQuestionnaireDraft(ctx, userCallerOf(req, res), projectId(req)));
  });
  router.post(`${base}/:projectId/close`, answers(200, AdminResearchProjectView), async (req, res) => {
    res.json(await closeResearchProject(ctx, userCallerOf(req, res), projectId(req)));
  });
  return router;
}

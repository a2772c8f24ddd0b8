/**
 * The Research Portal's API (/api/provider-research/{accountId}/…, research-access accounts only)
 * and the study responses of clinics taking part in PROSTOX Research
 * (/api/provider-clinic/{accountId}/research-projects and study-responses, clinic-access accounts).
 * Both portals' study-response routes call the same service, scoped to the URL's account.
 * docs/research-api.md lists every endpoint.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  ResearchProjectView, StudyResponseView, CatalogueOption, PhysicianOption, CreatedResearchOrder, ResearchTestRow, ParticipantDetail, ShipmentView, shapes,
  createShipmentBody, researchOrderBody, researchTestsQuery, studyResponsesQuery, takesPartInResearch, TOTAL_INCOMPLETE_HEADER, updateStudyResponseBody,
  type AccountSummary, type CreateShipmentBody, type ResearchOrderBody, type ResearchTestsQuery, type StudyResponsesQuery, type UpdateStudyResponseBody,
} from '@platform/domain';
import {
  createResearchOrder, createShipment, getParticipant, listProjects, listResearchTests, listStudyResponses, notFound, physiciansForCaller, researchCatalogue, updateStudyResponse,
} from '@platform/server';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers, answersPage } from '../http/answers';

export const RESEARCH_API_BASE = '/provider-research/:accountId';

export function researchRouter(ctx: AppContext): Router {
  const router = Router();
  const research: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'research' })];
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const query = <T>(res: Response) => res.locals.query as T;
  const accountOf = (res: Response) => res.locals.account as AccountSummary;

  // A clinic's research pages: only an account taking part in PROSTOX Research (a partner, or one with a project).
  const takingPart: RequestHandler = async (_req, res, next) => {
    try {
      const account = accountOf(res);
      const projects = await ctx.db.models.ResearchProjectAccount.count({ where: { accountId: account.id } });
      if (!takesPartInResearch(account, projects)) throw notFound('This account takes part in no research project');
      next();
    } catch (err) {
      next(err);
    }
  };

  // Study responses and projects: the same routes under both portals' bases. A clinic's
  // participation is checked after the input (the account's access already was, by the guards).
  for (const [base, guards, participation] of [[RESEARCH_API_BASE, research, []], [CLINIC_API_BASE, clinic, [takingPart]]] as const) {
    const path = (p: string) => `${base}/${p}`;
    // The projects are read by every clinic's home: an account taking part in none answers an empty list, not an error.
    router.get(path('research-projects'), ...guards, answers(200, shapes.array(ResearchProjectView)), async (req: Request, res: Response) => {
      res.set('Cache-Control', 'no-store').json(await listProjects(ctx, accountCallerOf(req, res)));
    });
    router.get(path('study-responses'), ...guards, validateQuery(studyResponsesQuery), ...participation, answersPage(StudyResponseView, TOTAL_INCOMPLETE_HEADER), async (req, res) => {
      const page = await listStudyResponses(ctx, accountCallerOf(req, res), query<StudyResponsesQuery>(res));
      res.set(TOTAL_INCOMPLETE_HEADER, String(page.incompleteParticipants));
      sendPage(res, page);
    });
    router.post(path('study-responses/:id/update'), ...guards, validateBody(updateStudyResponseBody), ...participation, answers(200, StudyResponseView), async (req, res) => {
      const id = pathId(req.params.id, 'Study response');
      res.json(await updateStudyResponse(ctx, accountCallerOf(req, res), id, req.body as UpdateStudyResponseBody));
    });
  }

  const path = (p: string) => `${RESEARCH_API_BASE}/${p}`;
  router.get(path('tests/catalogue'), ...research, answers(200, shapes.array(CatalogueOption)), (_req, res) => {
    res.json(researchCatalogue());
  });
  router.get(path('get-physicians-by-contact'), ...research, answers(200, shapes.array(PhysicianOption)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await physiciansForCaller(ctx, accountCallerOf(req, res), accountOf(res).role));
  });
  router.post(path('order'), ...research, validateBody(researchOrderBody), answers(201, CreatedResearchOrder), async (req, res) => {
    res.status(201).json(await createResearchOrder(ctx, accountCallerOf(req, res), accountOf(res).role, req.body as ResearchOrderBody));
  });
  router.get(path('tests'), ...research, validateQuery(researchTestsQuery), answersPage(ResearchTestRow), async (req, res) => {
    sendPage(res, await listResearchTests(ctx, accountCallerOf(req, res), query<ResearchTestsQuery>(res)));
  });
  router.get(path('patient/:patientId'), ...research, answers(200, ParticipantDetail), async (req, res) => {
    const patientId = pathId(req.params.patientId, 'Participant');
    res.set('Cache-Control', 'no-store').json(await getParticipant(ctx, accountCallerOf(req, res), patientId));
  });
  // Kits leave the research site the way a clinic's do: a shipment (Order Placed → Pending Shipment).
  router.post(path('shipments/create'), ...research, validateBody(createShipmentBody), answers(201, ShipmentView), async (req, res) => {
    res.status(201).json(await createShipment(ctx, accountCallerOf(req, res), (req.body as CreateShipmentBody).sampleIds));
  });

  return router;
}

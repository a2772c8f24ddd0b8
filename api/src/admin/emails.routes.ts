/**
 * The admin's emails (mounted at /api/admin by admin.routes.ts, behind requireUser('admin')):
 * the email log and resending, the two bulk campaigns (preview and send) and their progress.
 */
import { Router, type RequestHandler, type Response } from 'express';
import {
  EmailLogRow, CampaignPreview, CampaignProgress, CampaignRow, CampaignRecipientRow,
  campaignBody, EMAIL_CAMPAIGNS, emailsQuery, paginationQuery,
  type CampaignBody, type EmailCampaign, type EmailsQuery, type PaginationQuery,
} from '@platform/domain';
import { campaignProgress, campaignRecipients, listCampaigns, listEmails, notFound, previewCampaign, resendEmail, startCampaign } from '@platform/server';
import type { AppContext } from '../context';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { validateBody, validateQuery } from '../http/validate';
import { answers, answersPage } from '../http/answers';

/** page and pageSize only: these lists have one order. */
const pageQuery = paginationQuery.fork(['sort', 'order'], (s) => s.forbidden());

function campaignOf(value: unknown): EmailCampaign {
  const campaign = EMAIL_CAMPAIGNS.find((c) => c === value);
  if (!campaign) throw notFound('No such email campaign');
  return campaign;
}

export function adminEmailsRouter(ctx: AppContext): Router {
  const router = Router();
  const query = <T>(res: Response) => res.locals.query as T;
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  // The email log
  router.get('/emails', validateQuery(emailsQuery), answersPage(EmailLogRow), async (req, res) => {
    sendPage(res, await listEmails(ctx, userCallerOf(req, res), query<EmailsQuery>(res)));
  });
  router.post('/emails/:emailId/resend', answers(201, EmailLogRow), async (req, res) => {
    res.status(201).json(await resendEmail(ctx, userCallerOf(req, res), pathId(req.params.emailId, 'Email')));
  });

  // Bulk campaigns: an unknown campaign is 404 before its body is read.
  const knownCampaign: RequestHandler = (req, res, next) => {
    res.locals.campaign = campaignOf(req.params.campaign);
    next();
  };
  router.post('/send-email/:campaign', knownCampaign, validateBody(campaignBody), answers(200, CampaignPreview), answers(202, CampaignProgress), async (req, res) => {
    const campaign = res.locals.campaign as EmailCampaign;
    const { audience, preview } = req.body as CampaignBody;
    if (preview) {
      noStore(res).json(await previewCampaign(ctx, campaign, audience));
      return;
    }
    res.status(202).json(await startCampaign(ctx, userCallerOf(req, res), campaign, audience));
  });
  router.get('/email-campaigns', validateQuery(pageQuery), answersPage(CampaignRow), async (_req, res) => {
    sendPage(res, await listCampaigns(ctx.db, query<PaginationQuery>(res)));
  });
  router.get('/email-campaigns/:campaignId', answers(200, CampaignProgress), async (req, res) => {
    noStore(res).json(await campaignProgress(ctx.db, pathId(req.params.campaignId, 'Email campaign')));
  });
  router.get('/email-campaigns/:campaignId/recipients', validateQuery(pageQuery), answersPage(CampaignRecipientRow), async (req, res) => {
    const campaignId = pathId(req.params.campaignId, 'Email campaign');
    sendPage(res, await campaignRecipients(ctx.db, campaignId, query<PaginationQuery>(res)));
  });

  return router;
}

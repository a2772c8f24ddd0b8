/**
 * The lab's admin runs each account's HL7 v2 interface (issue 28): its connection, a test message,
 * and the log of messages sent with "Resend"; and public health's reporting of COVID-19 results
 * (ELR): where they go, the daily report, the batch file written now, "Resend" (mounted at
 * /api/admin by admin.routes.ts, behind requireUser('admin')).
 */
import { Router, type Request } from 'express';
import {
  ElrBatchView, ElrReportView, elrSettingsBody, ElrSettingsView, Hl7InterfaceView, hl7InterfaceBody, Hl7MessageDestination, Hl7MessageView, shapes,
} from '@platform/domain';
import {
  elrReport, getElrSettings, getHl7Interface, listHl7Messages, putElrSettings, putHl7Interface, resendHl7Message, sendHl7TestMessage, writeElrBatchNow,
} from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';

export function adminHl7Router(ctx: AppContext): Router {
  const router = Router();
  const accountPath = '/accounts/:accountId';
  const accountOf = (req: Request) => pathId(req.params.accountId, 'Account');

  router.get(`${accountPath}/hl7-interface`, answers(200, Hl7InterfaceView), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await getHl7Interface(ctx, accountOf(req)));
  });
  router.put(`${accountPath}/hl7-interface`, validateBody(hl7InterfaceBody), answers(200, Hl7InterfaceView), async (req, res) => {
    res.json(await putHl7Interface(ctx, userCallerOf(req, res), accountOf(req), req.body));
  });
  router.post(`${accountPath}/hl7-interface/test-message`, answers(200, Hl7MessageView), async (req, res) => {
    res.json(await sendHl7TestMessage(ctx, userCallerOf(req, res), accountOf(req)));
  });
  router.get(`${accountPath}/hl7-messages`, answers(200, shapes.array(Hl7MessageView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listHl7Messages(ctx, { destination: Hl7MessageDestination.Ehr, accountId: accountOf(req) }));
  });
  router.post(`${accountPath}/hl7-messages/:messageId/resend`, answers(201, Hl7MessageView), async (req, res) => {
    res.status(201).json(await resendHl7Message(ctx, userCallerOf(req, res), { destination: Hl7MessageDestination.Ehr, accountId: accountOf(req) }, pathId(req.params.messageId, 'Message')));
  });

  const elrPath = '/public-health/elr';
  router.get(elrPath, answers(200, ElrSettingsView), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await getElrSettings(ctx));
  });
  router.put(elrPath, validateBody(elrSettingsBody), answers(200, ElrSettingsView), async (req, res) => {
    res.json(await putElrSettings(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${elrPath}/report`, answers(200, ElrReportView), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await elrReport(ctx));
  });
  router.post(`${elrPath}/batches`, answers(201, ElrBatchView), async (req, res) => {
    res.status(201).json(await writeElrBatchNow(ctx, userCallerOf(req, res)));
  });
  router.post(`${elrPath}/messages/:messageId/resend`, answers(201, Hl7MessageView), async (req, res) => {
    res.status(201).json(await resendHl7Message(ctx, userCallerOf(req, res), { destination: Hl7MessageDestination.PublicHealth }, pathId(req.params.messageId, 'Message')));
  });
  return router;
}

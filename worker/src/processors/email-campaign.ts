import { campaignQueuedCount, queueCampaignBatch } from '@platform/server';
import type { Processor } from './types';

/** Recipients whose emails one transaction writes (and one send-email-batch job sends). */
export const CAMPAIGN_BATCH_SIZE = 100;

/**
 * Writes one logged email (and its send-email job) per recipient of a bulk campaign, a batch per
 * transaction, and reports queued / total as the job's progress. Resumable: a retried or
 * restarted run writes only for recipients who have no email yet; the sending itself is
 * send-email-batch's, one job per batch written.
 */
export const emailCampaign: Processor<'email-campaign'> = async ({ campaignId }, deps, tools) => {
  // Counted once: the progress adds each batch to it (a run of the job at the same time, which
  // should not happen, would only make it lag), rather than counting every recipient again per batch.
  const before = await campaignQueuedCount(deps.db, campaignId);
  let queuedNow = 0;
  for (;;) {
    const batch = await queueCampaignBatch(deps, campaignId, CAMPAIGN_BATCH_SIZE);
    if (batch.queued === 0) break;
    queuedNow += batch.queued;
    await tools.progress(before.total ? (Math.min(before.queued + queuedNow, before.total) / before.total) * 100 : 100);
  }
  const { queued, total } = await campaignQueuedCount(deps.db, campaignId);
  // Rows another run of this job still holds (locked, so skipped here): not done until they are written.
  if (queued < total) throw new Error(`${total - queued} recipient(s) of campaign ${campaignId} are still being written by another run`);
  return { recipients: total, queuedNow, queuedBefore: total - queuedNow };
};

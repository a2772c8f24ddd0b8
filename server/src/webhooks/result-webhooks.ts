/**
 * Result notices to an account's API clients (issue 27, item 4), following Standard Webhooks: on
 * each release, correction and rejection, one delivery row per client with a webhook URL and a
 * `deliver-webhook` job, written in the command's own transaction (the outbox: no notice without
 * its commit, none lost after it). The worker signs the body with the client's secret and POSTs it;
 * every attempt is logged; a failed attempt is retried with back-off for a day; a redelivery keeps
 * the message id, so a receiver recognises a replay.
 */
import { randomBytes } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import {
  WEBHOOK_LOG_SIZE, WEBHOOK_TIMEOUT_MS, WebhookDeliveryStatus, type WebhookBody, type WebhookDeliveryView, type WebhookEventType,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { enqueueJobs } from '../jobs/outbox';
import { auditActor, recordAudit, type Caller } from '../audit';
import { notFound } from '../errors';
import { toIso } from '../answer-values';
import { privateDestination } from './public-address';
import { batchedPerDb, onePerKey } from '../batched';
import { OUTSIDE_SAMPLE_FROM, OUTSIDE_SAMPLE_SCOPE, OUTSIDE_SQL_CONSTANTS, OUTSIDE_TEST_JOIN } from '../outside-scope';

/** What happened: a result released or corrected (its tests), or a sample rejected (each of its tests). */
export interface ResultEvent {
  type: WebhookEventType;
  sampleId: number;
  testIds: number[];
  createdByUserId: number | null;
}

/** A message id as Standard Webhooks writes them: `msg_` and random characters. */
const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

/**
 * Queues the notices of one event to every live client with a webhook in the sample's account.
 * Only what the FHIR API shows is told of (outside-scope.ts: never a research participant's
 * sample, nor a processing step). Answers how many deliveries were queued.
 */
export async function queueResultWebhooks(ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, event: ResultEvent): Promise<number> {
  if (!event.testIds.length) return 0;
  const targets = await ctx.db.sequelize.query<{ client_id: string; barcode: string; test_id: string }>(
    `SELECT c.id AS client_id, s.barcode, t.id AS test_id
       ${OUTSIDE_SAMPLE_FROM} ${OUTSIDE_TEST_JOIN}
       JOIN api_clients c ON c.account_id = s.account_id AND c.revoked_at IS NULL AND c.webhook_url IS NOT NULL
      WHERE s.id = :sampleId AND t.id IN (:testIds) AND ${OUTSIDE_SAMPLE_SCOPE}
      ORDER BY c.id, t.id`,
    { replacements: { ...OUTSIDE_SQL_CONSTANTS, sampleId: event.sampleId, testIds: event.testIds }, type: QueryTypes.SELECT, transaction },
  );
  if (!targets.length) return 0;
  const timestamp = new Date().toISOString();
  const rows = targets.map((t) => ({
    clientId: Number(t.client_id),
    messageId: newMessageId(),
    body: { type: event.type, timestamp, data: { diagnosticReport: `DiagnosticReport/${t.test_id}`, sample: t.barcode } } satisfies WebhookBody,
  }));
  const inserted = await ctx.db.sequelize.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (api_client_id, message_id, event_type, body, sample_id)
     SELECT client_id, message_id, $3, body, $4 FROM unnest($1::bigint[], $2::text[], $5::jsonb[]) AS i(client_id, message_id, body)
     RETURNING id`,
    {
      bind: [rows.map((r) => r.clientId), rows.map((r) => r.messageId), event.type, event.sampleId, rows.map((r) => JSON.stringify(r.body))],
      type: QueryTypes.SELECT, transaction,
    },
  );
  await enqueueJobs(ctx, transaction, 'deliver-webhook', inserted.map((r) => ({ payload: { deliveryId: Number(r.id) }, idempotencyKey: `webhook:${r.id}` })), event.createdByUserId);
  return inserted.length;
}

interface DeliveryTarget {
  id: number;
  message_id: string;
  body: WebhookBody;
  status: WebhookDeliveryStatus;
  webhook_url: string | null;
  webhook_secret: string | null;
  revoked_at: Date | null;
}

export type DeliveryOutcome = { delivered: true; statusCode: number; responseMs: number } | { skipped: string };

/** The deliveries of the deliver-webhook jobs starting at the same moment, with their clients, in one statement. */
const readDelivery = batchedPerDb<number, DeliveryTarget | null>(async (db, ids) => {
  const rows = await db.sequelize.query<DeliveryTarget>(
    `SELECT d.id, d.message_id, d.body, d.status, c.webhook_url, c.webhook_secret, c.revoked_at
       FROM webhook_deliveries d JOIN api_clients c ON c.id = d.api_client_id WHERE d.id = ANY($1::bigint[])`,
    { bind: [ids], type: QueryTypes.SELECT },
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => byId.get(id) ?? null);
});

/**
 * One attempt of one delivery (the worker's `deliver-webhook`): signed, POSTed, logged. A non-2xx
 * answer, a timeout or no connection throws, so the job is retried; a delivery already made, or
 * to a client revoked meanwhile, is not attempted.
 */
export async function attemptWebhookDelivery(ctx: Pick<ServerContext, 'db' | 'config'>, deliveryId: number): Promise<DeliveryOutcome> {
  const row = await readDelivery(ctx.db, deliveryId);
  if (!row) return { skipped: 'no such delivery' };
  if (row.status === WebhookDeliveryStatus.Delivered) return { skipped: 'already delivered' };
  if (row.revoked_at || !row.webhook_url || !row.webhook_secret) {
    await finishDelivery(ctx, deliveryId, WebhookDeliveryStatus.Failed, 'The API client was revoked or has no webhook');
    return { skipped: 'client revoked' };
  }
  const payload = JSON.stringify(row.body);
  const sentAt = new Date();
  // In production a webhook reaches the internet only (public-address.ts); in development and tests it is a local receiver.
  const refused = ctx.config.env === 'production' ? await privateDestination(row.webhook_url) : null;
  if (refused) {
    await logAttempt(ctx.db, { deliveryId, statusCode: null, responseMs: 0, error: refused, at: sentAt });
    throw new Error(refused);
  }
  const signature = new Webhook(row.webhook_secret).sign(row.message_id, sentAt, payload);
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(row.webhook_url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': row.message_id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    statusCode = res.status;
    await res.body?.cancel().catch(() => undefined);
    if (statusCode < 200 || statusCode >= 300) error = `The receiver answered ${statusCode}`;
  } catch (err) {
    error = (err as Error).name === 'TimeoutError' ? `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `Could not reach the receiver (${(err as Error).message})`;
  }
  const responseMs = Math.round(performance.now() - started);
  await logAttempt(ctx.db, { deliveryId, statusCode, responseMs, error, at: sentAt });
  if (error) throw new Error(error);
  return { delivered: true, statusCode: statusCode!, responseMs };
}

interface Attempt { deliveryId: number; statusCode: number | null; responseMs: number; error: string | null; at: Date }

/**
 * The attempts finished at the same moment: each one's log row and its delivery's latest state, in
 * one statement (a delivery attempted twice at once, a redelivery racing its retry, in two).
 */
const logAttempt = batchedPerDb<Attempt>(async (db, attempts) => {
  for (const now of onePerKey(attempts, (a) => a.deliveryId)) {
    await db.sequelize.query(
      `WITH v AS (
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::int[], $5::text[]) AS v(delivery_id, at, status_code, response_ms, error)
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, response_ms, error)
         SELECT delivery_id, at, status_code, response_ms, error FROM v
       )
       UPDATE webhook_deliveries d SET attempts = d.attempts + 1, last_attempt_at = v.at, last_status_code = v.status_code,
         last_response_ms = v.response_ms, last_error = v.error, status = CASE WHEN v.error IS NULL THEN $6 ELSE d.status END,
         delivered_at = CASE WHEN v.error IS NULL THEN v.at ELSE d.delivered_at END, updated_at = now()
         FROM v WHERE d.id = v.delivery_id`,
      {
        bind: [now.map((a) => a.deliveryId), now.map((a) => a.at), now.map((a) => a.statusCode), now.map((a) => a.responseMs), now.map((a) => a.error), WebhookDeliveryStatus.Delivered],
        type: QueryTypes.UPDATE,
      },
    );
  }
});

/** The end of a delivery that will not be tried again (the last attempt failed, or the client is gone). */
export async function finishDelivery(ctx: Pick<ServerContext, 'db'>, deliveryId: number, status: WebhookDeliveryStatus, error: string, transaction?: Transaction): Promise<void> {
  await ctx.db.sequelize.query(
    `UPDATE webhook_deliveries SET status = :status, last_error = COALESCE(:error, last_error), updated_at = now() WHERE id = :deliveryId AND status <> :delivered`,
    { replacements: { deliveryId, status, error, delivered: WebhookDeliveryStatus.Delivered }, transaction },
  );
}

interface DeliveryRow {
  id: string;
  message_id: string;
  event_type: WebhookEventType;
  body: WebhookBody;
  status: WebhookDeliveryStatus;
  created_at: Date;
  attempts: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_response_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

const deliveryViewOf = (r: DeliveryRow): WebhookDeliveryView => ({
  id: Number(r.id), messageId: r.message_id, type: r.event_type, sample: r.body.data.sample, status: r.status, createdAt: toIso(r.created_at)!,
  attempts: r.attempts, lastAttemptAt: toIso(r.last_attempt_at), lastStatusCode: r.last_status_code, lastResponseMs: r.last_response_ms,
  lastError: r.last_error, deliveredAt: toIso(r.delivered_at),
});

/** The internal id of the account's client, or the 404 of a client that does not exist. */
async function clientRowId(ctx: Pick<ServerContext, 'db'>, accountId: number, clientId: string, transaction?: Transaction): Promise<number> {
  const [row] = await ctx.db.sequelize.query<{ id: string }>(
    'SELECT id FROM api_clients WHERE client_id = :clientId AND account_id = :accountId',
    { replacements: { clientId, accountId }, type: QueryTypes.SELECT, transaction },
  );
  if (!row) throw notFound('API client not found');
  return Number(row.id);
}

const DELIVERY_COLUMNS = 'id, message_id, event_type, body, status, created_at, attempts, last_attempt_at, last_status_code, last_response_ms, last_error, delivered_at';

/** GET …/api-clients/{clientId}/deliveries: the client's newest WEBHOOK_LOG_SIZE notices and how each went. */
export async function listWebhookDeliveries(ctx: Pick<ServerContext, 'db'>, accountId: number, clientId: string): Promise<WebhookDeliveryView[]> {
  const id = await clientRowId(ctx, accountId, clientId);
  const rows = await ctx.db.sequelize.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE api_client_id = :id ORDER BY id DESC LIMIT :limit`,
    { replacements: { id, limit: WEBHOOK_LOG_SIZE }, type: QueryTypes.SELECT },
  );
  return rows.map(deliveryViewOf);
}

/** POST …/deliveries/{deliveryId}/redeliver: the same message (same id) queued again, audited. */
export async function redeliverWebhook(
  ctx: Pick<ServerContext, 'db' | 'relay'>, caller: Caller, accountId: number, clientId: string, deliveryId: number,
): Promise<WebhookDeliveryView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const id = await clientRowId(ctx, accountId, clientId, transaction);
    const [row] = await ctx.db.sequelize.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET status = :pending, updated_at = now() WHERE id = :deliveryId AND api_client_id = :id RETURNING ${DELIVERY_COLUMNS}`,
      { replacements: { deliveryId, id, pending: WebhookDeliveryStatus.Pending }, type: QueryTypes.SELECT, transaction },
    );
    if (!row) throw notFound('Delivery not found');
    await enqueueJobs(ctx, transaction, 'deliver-webhook', [{ payload: { deliveryId }, idempotencyKey: `webhook:${deliveryId}:redeliver:${randomBytes(6).toString('hex')}` }], caller.userId);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'api_client.webhook_redeliver', entityKind: 'account', entityId: accountId, details: { clientId, deliveryId, messageId: row.message_id },
    }, transaction);
    return deliveryViewOf(row);
  });
}

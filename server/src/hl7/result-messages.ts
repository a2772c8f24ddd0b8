/**
 * Results to an account's EHR as HL7 v2.5.1 ORU^R01 (issue 28, item 2). On each release,
 * correction and rejection of the account's results, one message row per test and a `send-hl7`
 * job are written in the command's own transaction (the outbox: no message without its commit,
 * none lost after it). The worker builds the message when it sends it, from the result version the
 * row names, sends it over MLLP and waits for the ACK: AA completes it; AE, AR or no answer throws
 * so the job is retried with back-off; after the last attempt the message is Failed, shown in the
 * account's message log with "Resend" (a new message, with a new control id).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { queryPrepared } from '@platform/db';
import {
  DocumentType, ELR_TESTS, ElrMode, HL7_LOG_SIZE, Hl7MessageDestination, Hl7MessageReason, Hl7MessageStatus, labReportFileName, TestResultStatus, WebhookEventType, type Hl7MessageView,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { enqueueJobs } from '../jobs/outbox';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, notFound } from '../errors';
import { toIso } from '../answer-values';
import { sampleDocumentNamed } from '../files';
import { OUTSIDE_SAMPLE_FROM, OUTSIDE_SAMPLE_SCOPE, OUTSIDE_SQL_CONSTANTS, OUTSIDE_TEST_JOIN } from '../outside-scope';
import type { ResultEvent } from '../webhooks/result-webhooks';
import { batchedPerDb, onePerKey } from '../batched';
import { buildResultOru } from './oru';
import { Hl7NoAnswer, sendOverMllp } from './mllp';
import { Hl7InvalidAck } from './ack';
import { enabledHl7Destination, type Hl7Destination } from './interfaces';
import { resultOruInput, type MessageSource } from './result-input';

export const ORU_R01 = 'ORU^R01';

const REASON_OF_EVENT: Readonly<Record<WebhookEventType, Hl7MessageReason>> = {
  [WebhookEventType.ResultReleased]: Hl7MessageReason.Released,
  [WebhookEventType.ResultCorrected]: Hl7MessageReason.Corrected,
  [WebhookEventType.SampleRejected]: Hl7MessageReason.Rejected,
};

type Ctx = Pick<ServerContext, 'db'>;

/**
 * Queues the ORU^R01 of one event's tests: to the sample's account's EHR when it has an enabled
 * interface, and, for a reportable test (ELR_TESTS), to public health when reporting is enabled;
 * only samples that may be told outside (outside-scope.ts). The control id is `M` and the row's id:
 * unique, and within the 20 characters of MSH-10. A report for the daily batch file gets no job (the
 * batch takes it). Answers how many messages were queued.
 */
export async function queueResultMessages(ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, event: ResultEvent): Promise<number> {
  if (!event.testIds.length) return 0;
  const reason = REASON_OF_EVENT[event.type];
  const replacements = {
    ...OUTSIDE_SQL_CONSTANTS, messageType: ORU_R01, reason, rejected: Hl7MessageReason.Rejected, released: TestResultStatus.Released,
    sampleId: event.sampleId, testIds: event.testIds, userId: event.createdByUserId, elrTests: [...ELR_TESTS],
    ehr: Hl7MessageDestination.Ehr, publicHealth: Hl7MessageDestination.PublicHealth, mllp: ElrMode.Mllp,
  };
  const rows = await ctx.db.sequelize.query<{ id: string; sent_now: boolean }>(
    `WITH tests_told AS (
       SELECT s.account_id, s.id AS sample_id, t.id AS test_id, t.name AS test_name,
              (SELECT r.id FROM test_results r WHERE r.test_id = t.id AND r.status = :released AND :reason <> :rejected) AS result_id
         ${OUTSIDE_SAMPLE_FROM} ${OUTSIDE_TEST_JOIN}
        WHERE s.id = :sampleId AND t.id IN (:testIds) AND ${OUTSIDE_SAMPLE_SCOPE}
     ), destined AS (
       SELECT x.*, :ehr AS destination, true AS sent_now FROM tests_told x JOIN hl7_interfaces i ON i.account_id = x.account_id AND i.enabled
       UNION ALL
       SELECT x.*, :publicHealth, e.mode = :mllp FROM tests_told x JOIN elr_settings e ON e.enabled WHERE x.test_name IN (:elrTests)
     ), numbered AS (
       SELECT nextval('hl7_messages_id_seq') AS id, d.* FROM (SELECT * FROM destined ORDER BY destination, test_id) d
     ), inserted AS (
       INSERT INTO hl7_messages (id, control_id, account_id, destination, message_type, reason, sample_id, test_id, test_result_id, created_by_user_id)
       SELECT id, 'M' || id, account_id, destination, :messageType, :reason, sample_id, test_id, result_id, :userId FROM numbered
       RETURNING id
     )
     SELECT n.id, n.sent_now FROM numbered n JOIN inserted USING (id)`,
    { replacements, type: QueryTypes.SELECT, transaction },
  );
  await enqueueHl7Sends(ctx, transaction, rows.filter((r) => r.sent_now).map((r) => Number(r.id)), event.createdByUserId);
  return rows.length;
}

/** One send-hl7 job per message; `round` tells a later sending of the same rows apart (their first job's key is taken). */
export async function enqueueHl7Sends(
  ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, ids: number[], userId: number | null, round = '',
): Promise<void> {
  if (!ids.length) return;
  await enqueueJobs(ctx, transaction, 'send-hl7', ids.map((id) => ({ payload: { messageId: id }, idempotencyKey: `hl7:${id}${round}` })), userId);
}

/**
 * What building and sending messages needs of each: where it goes (the account's interface, or
 * public health's settings: one of the two joins), the sample, patient, order, physician, result.
 */
const MESSAGE_SELECT = `SELECT m.id, m.control_id, m.reason, m.status, m.destination, m.account_id, m.created_at, m.batch_id,
            COALESCE(i.enabled, e.enabled) AS enabled, COALESCE(i.host, e.host) AS host, COALESCE(i.port, e.port) AS port, e.mode AS elr_mode,
            COALESCE(i.receiving_application, e.receiving_application) AS receiving_application,
            COALESCE(i.receiving_facility, e.receiving_facility) AS receiving_facility, a.name AS account_name,
            s.id AS sample_id, s.barcode, s.collected_at, s.received_at, s.rejection_reason, s.sample_type,
            p.id AS patient_id, p.first_name, p.last_name, p.date_of_birth, p.sex, p.phone, p.address_line1, p.address_line2, p.city, p.state,
            p.postal_code, p.country, p.medical_record_number,
            o.id AS order_id, ph.first_name AS physician_first_name, ph.last_name AS physician_last_name, ph.npi, c.phone AS physician_phone,
            t.name AS test_name, r.id AS result_id, r.value, r.reviewed_at, r.correction_reason
       FROM hl7_messages m
       LEFT JOIN hl7_interfaces i ON i.account_id = m.account_id AND m.destination = '${Hl7MessageDestination.Ehr}'
       LEFT JOIN elr_settings e ON m.destination = '${Hl7MessageDestination.PublicHealth}'
       LEFT JOIN accounts a ON a.id = m.account_id
       LEFT JOIN samples s ON s.id = m.sample_id
       LEFT JOIN orders o ON o.id = s.order_id
       LEFT JOIN patients p ON p.id = s.patient_id
       LEFT JOIN physicians ph ON ph.id = o.physician_id
       LEFT JOIN contacts c ON c.id = ph.contact_id
       LEFT JOIN tests t ON t.id = m.test_id
       LEFT JOIN test_results r ON r.id = m.test_result_id`;

export interface MessageRow extends MessageSource {
  status: Hl7MessageStatus;
  batch_id: string | null;
  enabled: boolean | null;
  host: string | null;
  port: number | null;
}

/** The rows of these messages, in id order. */
export async function messageRows(ctx: Ctx, messageIds: readonly number[], transaction?: Transaction): Promise<MessageRow[]> {
  if (!messageIds.length) return [];
  return ctx.db.sequelize.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.id IN (:messageIds) ORDER BY m.id`, {
    replacements: { messageIds }, type: QueryTypes.SELECT, transaction,
  });
}

/**
 * One message's row, as a prepared statement: every attempt reads it, and planning its ten joins
 * afresh took about 4 ms a call, several times what running them takes.
 */
async function messageRow(ctx: Ctx, messageId: number): Promise<MessageRow | null> {
  const [row] = await queryPrepared<MessageRow>(ctx.db, `${MESSAGE_SELECT} WHERE m.id = :messageId`, { messageId });
  return row ?? null;
}

export type Hl7SendOutcome = { acknowledged: true; controlId: string } | { skipped: string };

export interface Hl7SendHooks {
  /** Makes sure the result version's lab report PDF is stored (the worker renders it when it is not yet). */
  ensureReport(sampleId: number, testResultId: number): Promise<void>;
}

/**
 * One attempt of one message (the worker's `send-hl7`): built, sent, its ACK recorded. AE, AR or
 * no answer throws, so the job is retried; a message already acknowledged is not sent again.
 */
export async function attemptHl7Send(ctx: Pick<ServerContext, 'db' | 'config'>, messageId: number, hooks: Hl7SendHooks): Promise<Hl7SendOutcome> {
  const row = await messageRow(ctx, messageId);
  if (!row) return { skipped: 'no such message' };
  if (row.status === Hl7MessageStatus.Acknowledged) return { skipped: 'already acknowledged' };
  if (row.status === Hl7MessageStatus.Batched) return { skipped: 'written to a batch file' };
  const toPublicHealth = row.destination === Hl7MessageDestination.PublicHealth;
  // Reporting switched to the daily file since this was queued: the next batch takes it.
  if (toPublicHealth && row.enabled && row.elr_mode === ElrMode.BatchFile) return { skipped: 'the daily batch file takes it' };
  if (!row.enabled || row.host === null || row.port === null) {
    await finishHl7Message(ctx, messageId, toPublicHealth ? 'Public health reporting is disabled' : 'The account\'s HL7 interface is disabled');
    return { skipped: 'interface disabled' };
  }
  const to = { host: row.host, port: row.port };
  const report = !toPublicHealth && row.reason !== Hl7MessageReason.Rejected && row.sample_id !== null && row.result_id !== null
    ? await storedReport(ctx, Number(row.sample_id), Number(row.result_id), row.barcode!, hooks)
    : null;
  const message = buildResultOru(resultOruInput(ctx.config, row, report?.content ?? null));
  await sendAndRecord(ctx, messageId, to, message);
  return { acknowledged: true, controlId: row.control_id };
}

/** The result version's lab report: stored by the release's render-pdf as a rule, rendered here only when it is not yet. */
async function storedReport(ctx: Pick<ServerContext, 'db'>, sampleId: number, resultId: number, barcode: string, hooks: Hl7SendHooks) {
  const read = () => sampleDocumentNamed(ctx.db, sampleId, DocumentType.LabReport, labReportFileName(barcode, resultId));
  const stored = await read();
  if (stored) return stored;
  await hooks.ensureReport(sampleId, resultId);
  return read();
}

/** Sends one built message and records its answer; throws unless the answer is AA (or CA). */
export async function sendAndRecord(
  ctx: Pick<ServerContext, 'db' | 'config'>, messageId: number, to: Pick<Hl7Destination, 'host' | 'port'>, message: ReturnType<typeof buildResultOru>,
): Promise<void> {
  const at = new Date();
  let ack: Awaited<ReturnType<typeof sendOverMllp>>;
  try {
    ack = await sendOverMllp({ host: to.host, port: to.port, message, timeoutMs: ctx.config.hl7AckTimeoutMs });
  } catch (err) {
    // Every attempt is in the log, whatever ended it (no ACK, an unreadable answer, the network).
    await recordAttempt(ctx.db, { messageId, at, ackCode: null, ackText: failureText(err, ctx.config.hl7AckTimeoutMs) });
    throw err;
  }
  await recordAttempt(ctx.db, { messageId, at, ackCode: ack.code, ackText: ack.text || null });
  if (ack.code !== 'AA' && ack.code !== 'CA') throw new Error(`The receiver answered ${ack.code}${ack.text ? `: ${ack.text}` : ''}`);
}

/** Why an attempt got no ACK, in words for the admin (the error's own text can hold no patient data: it is the network's). */
function failureText(err: unknown, timeoutMs: number): string {
  if (err instanceof Hl7NoAnswer) return noAnswerText(err, timeoutMs);
  if (err instanceof Hl7InvalidAck) return 'The receiver\'s answer is not an HL7 acknowledgement';
  return `Could not send the message (${(err as Error).name}${(err as NodeJS.ErrnoException).code ? ` ${(err as NodeJS.ErrnoException).code}` : ''})`;
}

function noAnswerText(err: Hl7NoAnswer, timeoutMs: number): string {
  if (err.reason === 'timeout') return `No acknowledgement within ${Math.round(timeoutMs / 1000)} s`;
  if (err.reason === 'closed') return 'The receiver closed the connection without an acknowledgement';
  return 'Could not connect to the receiver';
}

interface Attempt { messageId: number; at: Date; ackCode: string | null; ackText: string | null }

/** The attempts answered at the same moment, recorded in one statement (a message attempted twice at once in two). */
const recordAttempt = batchedPerDb<Attempt>(async (db, attempts) => {
  for (const now of onePerKey(attempts, (a) => a.messageId)) {
    await db.sequelize.query(
      `UPDATE hl7_messages m SET attempts = m.attempts + 1, last_attempt_at = v.at, ack_code = v.ack_code, ack_text = v.ack_text,
         status = CASE WHEN v.accepted THEN $6 ELSE m.status END,
         acknowledged_at = CASE WHEN v.accepted THEN v.at ELSE m.acknowledged_at END, updated_at = now()
         FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::boolean[]) AS v(id, at, ack_code, ack_text, accepted)
        WHERE m.id = v.id`,
      {
        bind: [
          now.map((a) => a.messageId), now.map((a) => a.at), now.map((a) => a.ackCode), now.map((a) => a.ackText),
          now.map((a) => a.ackCode === 'AA' || a.ackCode === 'CA'), Hl7MessageStatus.Acknowledged,
        ],
        type: QueryTypes.UPDATE,
      },
    );
  }
});

/** The end of a message that will not be tried again (its last attempt failed, or the interface was disabled). */
export async function finishHl7Message(ctx: Ctx, messageId: number, error: string, transaction?: Transaction): Promise<void> {
  await ctx.db.sequelize.query(
    `UPDATE hl7_messages SET status = :failed, ack_text = COALESCE(ack_text, :error), updated_at = now()
      WHERE id = :messageId AND status <> :acknowledged`,
    { replacements: { messageId, error, failed: Hl7MessageStatus.Failed, acknowledged: Hl7MessageStatus.Acknowledged }, transaction },
  );
}

interface LogRow {
  id: string;
  control_id: string;
  message_type: string;
  reason: Hl7MessageReason;
  barcode: string | null;
  test_name: string | null;
  status: Hl7MessageStatus;
  created_at: Date;
  attempts: number;
  last_attempt_at: Date | null;
  ack_code: string | null;
  ack_text: string | null;
  acknowledged_at: Date | null;
}

const LOG_SELECT = `SELECT m.id, m.control_id, m.message_type, m.reason, s.barcode, t.name AS test_name, m.status, m.created_at, m.attempts,
       m.last_attempt_at, m.ack_code, m.ack_text, m.acknowledged_at
  FROM hl7_messages m LEFT JOIN samples s ON s.id = m.sample_id LEFT JOIN tests t ON t.id = m.test_id`;

const logViewOf = (r: LogRow): Hl7MessageView => ({
  id: Number(r.id), controlId: r.control_id, messageType: r.message_type, reason: r.reason, sample: r.barcode, test: r.test_name, status: r.status,
  createdAt: toIso(r.created_at)!, attempts: r.attempts, lastAttemptAt: toIso(r.last_attempt_at), ackCode: r.ack_code, ackText: r.ack_text,
  acknowledgedAt: toIso(r.acknowledged_at),
});

export async function hl7MessageView(ctx: Ctx, messageId: number, transaction?: Transaction): Promise<Hl7MessageView> {
  const [row] = await ctx.db.sequelize.query<LogRow>(`${LOG_SELECT} WHERE m.id = :messageId`, { replacements: { messageId }, type: QueryTypes.SELECT, transaction });
  if (!row) throw notFound('HL7 message not found');
  return logViewOf(row);
}

/** Whose messages a log shows and a resend may take: one account's EHR, or public health. */
export type Hl7MessageScope = { destination: typeof Hl7MessageDestination.Ehr; accountId: number } | { destination: typeof Hl7MessageDestination.PublicHealth };

function scopeCondition(scope: Hl7MessageScope): { sql: string; replacements: Record<string, unknown> } {
  return scope.destination === Hl7MessageDestination.Ehr
    ? { sql: 'm.destination = :destination AND m.account_id = :accountId', replacements: { destination: scope.destination, accountId: scope.accountId } }
    : { sql: 'm.destination = :destination', replacements: { destination: scope.destination } };
}

/** GET /api/admin/accounts/{accountId}/hl7-messages (and public health's report): the newest HL7_LOG_SIZE messages and how each went. */
export async function listHl7Messages(ctx: Ctx, scope: Hl7MessageScope): Promise<Hl7MessageView[]> {
  const where = scopeCondition(scope);
  const rows = await ctx.db.sequelize.query<LogRow>(
    `${LOG_SELECT} WHERE ${where.sql} ORDER BY m.id DESC LIMIT :limit`,
    { replacements: { ...where.replacements, limit: HL7_LOG_SIZE }, type: QueryTypes.SELECT },
  );
  return rows.map(logViewOf);
}

/** Whether the scope's destination takes messages now, and whether a new one is sent at once (else the daily batch file takes it). */
async function destinationState(ctx: Ctx, scope: Hl7MessageScope, transaction: Transaction): Promise<{ enabled: boolean; sendsNow: boolean }> {
  if (scope.destination === Hl7MessageDestination.Ehr) {
    const enabled = (await enabledHl7Destination(ctx, scope.accountId, transaction)) !== null;
    return { enabled, sendsNow: enabled };
  }
  const [settings] = await ctx.db.sequelize.query<{ enabled: boolean; mode: ElrMode }>('SELECT enabled, mode FROM elr_settings', { type: QueryTypes.SELECT, transaction });
  return { enabled: Boolean(settings?.enabled), sendsNow: settings?.mode === ElrMode.Mllp };
}

const DISABLED_TO_RESEND: Readonly<Record<Hl7MessageDestination, string>> = {
  [Hl7MessageDestination.Ehr]: 'The account\'s HL7 interface is disabled: enable it to resend',
  [Hl7MessageDestination.PublicHealth]: 'Public health reporting is disabled: enable it to resend',
};

/**
 * POST …/hl7-messages/{messageId}/resend: the same result sent again as a new message (a new
 * control id: a receiver that kept the first ignores none), queued through the outbox (or left for
 * the daily batch file), audited.
 */
export async function resendHl7Message(ctx: Pick<ServerContext, 'db' | 'relay'>, caller: Caller, scope: Hl7MessageScope, messageId: number): Promise<Hl7MessageView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const where = scopeCondition(scope);
    const [original] = await ctx.db.sequelize.query<{ reason: Hl7MessageReason; result_status: TestResultStatus | null }>(
      `SELECT m.reason, r.status AS result_status FROM hl7_messages m LEFT JOIN test_results r ON r.id = m.test_result_id
        WHERE m.id = :messageId AND ${where.sql}`,
      { replacements: { messageId, ...where.replacements }, type: QueryTypes.SELECT, transaction },
    );
    if (!original) throw notFound('HL7 message not found');
    if (original.reason === Hl7MessageReason.Test) throw conflict('A test message is not resent: send a new one from the interface');
    if (original.reason === Hl7MessageReason.Order) throw conflict('An order received from the EHR is not resent: the EHR sends it again');
    // An older version resent after a correction would tell the receiver the wrong value.
    if (original.result_status !== null && original.result_status !== TestResultStatus.Released) {
      throw conflict('This result was corrected since: its correction is the message to send');
    }
    const destination = await destinationState(ctx, scope, transaction);
    if (!destination.enabled) throw conflict(DISABLED_TO_RESEND[scope.destination]);
    const [copy] = await ctx.db.sequelize.query<{ id: string }>(
      `INSERT INTO hl7_messages (id, control_id, account_id, destination, message_type, reason, sample_id, test_id, test_result_id, created_by_user_id)
       SELECT n.id, 'M' || n.id, m.account_id, m.destination, m.message_type, m.reason, m.sample_id, m.test_id, m.test_result_id, :userId
         FROM hl7_messages m CROSS JOIN (SELECT nextval('hl7_messages_id_seq') AS id) n WHERE m.id = :messageId
       RETURNING id`,
      { replacements: { messageId, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    const copyId = Number(copy.id);
    if (destination.sendsNow) await enqueueHl7Sends(ctx, transaction, [copyId], caller.userId);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'hl7_message.resent',
      ...(scope.destination === Hl7MessageDestination.Ehr ? { entityKind: 'account' as const, entityId: scope.accountId } : {}),
      details: { messageId, resentAs: copyId, destination: scope.destination },
    }, transaction);
    return hl7MessageView(ctx, copyId, transaction);
  });
}

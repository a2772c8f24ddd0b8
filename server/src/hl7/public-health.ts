/**
 * Electronic lab reporting of COVID-19 to public health (issue 28, item 4): the one destination the
 * lab's admin configures (MLLP, or a daily batch file), and the report of what was sent per day and
 * what was acknowledged. The reports themselves are HL7 messages like the EHR's
 * (result-messages.ts queues both); batch files are written by elr-batches.ts.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import {
  ELR_REPORT_DAYS, ElrMode, Hl7MessageDestination, Hl7MessageStatus, JobStatus,
  type ElrBatchView, type ElrReportView, type ElrSettingsBody, type ElrSettingsView,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { toIso } from '../answer-values';
import { enqueueHl7Sends, listHl7Messages } from './result-messages';

type Ctx = Pick<ServerContext, 'db'>;

interface SettingsRow {
  enabled: boolean;
  mode: ElrMode;
  host: string | null;
  port: number | null;
  folder: string | null;
  receiving_application: string;
  receiving_facility: string;
  updated_at: Date;
}

const SETTINGS_COLUMNS = 'enabled, mode, host, port, folder, receiving_application, receiving_facility, updated_at';

const bodyOf = (r: SettingsRow): ElrSettingsBody => ({
  enabled: r.enabled, mode: r.mode, host: r.host, port: r.port, folder: r.folder, receivingApplication: r.receiving_application, receivingFacility: r.receiving_facility,
});

function viewOf(r: SettingsRow | undefined): ElrSettingsView {
  if (!r) {
    return { configured: false, enabled: false, mode: ElrMode.Mllp, host: null, port: null, folder: null, receivingApplication: '', receivingFacility: '', updatedAt: null };
  }
  return { configured: true, ...bodyOf(r), updatedAt: toIso(r.updated_at) };
}

/** The settings row (none before the admin's first save). */
export async function elrSettingsRow(ctx: Ctx, transaction?: Transaction, lock = false): Promise<SettingsRow | undefined> {
  const [row] = await ctx.db.sequelize.query<SettingsRow>(
    `SELECT ${SETTINGS_COLUMNS} FROM elr_settings${lock ? ' FOR UPDATE' : ''}`, { type: QueryTypes.SELECT, transaction },
  );
  return row;
}

/** GET /api/admin/public-health/elr */
export async function getElrSettings(ctx: Ctx): Promise<ElrSettingsView> {
  return viewOf(await elrSettingsRow(ctx));
}

const sendsNow = (r: SettingsRow | undefined) => Boolean(r?.enabled && r.mode === ElrMode.Mllp);

/**
 * PUT /api/admin/public-health/elr: creates or replaces the settings, audited with the old and new
 * values. Turning MLLP on sends what waits: the reports queued for a batch file, or while reporting
 * was off, that no job is sending now (a message with a job still retrying keeps that job).
 */
export async function putElrSettings(ctx: Pick<ServerContext, 'db' | 'relay'>, caller: Caller, body: ElrSettingsBody): Promise<ElrSettingsView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const before = await elrSettingsRow(ctx, transaction, true);
    const [after] = await ctx.db.sequelize.query<SettingsRow>(
      `INSERT INTO elr_settings (id, enabled, mode, host, port, folder, receiving_application, receiving_facility, updated_by_user_id)
       VALUES (1, :enabled, :mode, :host, :port, :folder, :receivingApplication, :receivingFacility, :userId)
       ON CONFLICT (id) DO UPDATE SET enabled = EXCLUDED.enabled, mode = EXCLUDED.mode, host = EXCLUDED.host, port = EXCLUDED.port,
         folder = EXCLUDED.folder, receiving_application = EXCLUDED.receiving_application, receiving_facility = EXCLUDED.receiving_facility,
         updated_by_user_id = EXCLUDED.updated_by_user_id, updated_at = now()
       RETURNING ${SETTINGS_COLUMNS}`,
      { replacements: { ...body, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    if (sendsNow(after) && !sendsNow(before)) await sendWaitingReports(ctx, transaction, caller.userId, after.updated_at);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'elr_settings.updated', details: { old: before ? bodyOf(before) : null, new: bodyOf(after) },
    }, transaction);
    return viewOf(after);
  });
}

async function sendWaitingReports(ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, userId: number | null, at: Date): Promise<void> {
  const waiting = await ctx.db.sequelize.query<{ id: string }>(
    `SELECT m.id FROM hl7_messages m
      WHERE m.destination = :publicHealth AND m.status = :pending AND m.batch_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.name = 'send-hl7' AND (j.payload->>'messageId')::bigint = m.id AND j.status NOT IN (:finished))
      ORDER BY m.id FOR UPDATE OF m`,
    {
      replacements: { publicHealth: Hl7MessageDestination.PublicHealth, pending: Hl7MessageStatus.Pending, finished: [JobStatus.Completed, JobStatus.Failed] },
      type: QueryTypes.SELECT, transaction,
    },
  );
  // Their first job's key is taken (it found the batch mode, or reporting off): this sending is told apart by the settings' time.
  await enqueueHl7Sends(ctx, transaction, waiting.map((w) => Number(w.id)), userId, `:settings-${at.getTime()}`);
}

interface DayRow {
  day: string;
  reported: number;
  sent: number;
  acknowledged: number;
  batched: number;
  failed: number;
  pending: number;
}

interface BatchRow {
  id: string;
  file_name: string;
  message_count: number;
  created_at: Date;
  written_at: Date | null;
}

export const batchViewOf = (r: BatchRow): ElrBatchView => ({
  id: Number(r.id), fileName: r.file_name, messages: r.message_count, createdAt: toIso(r.created_at)!, writtenAt: toIso(r.written_at),
});

/** Batch files the report lists, newest first. */
const REPORT_BATCHES = 20;

/**
 * GET /api/admin/public-health/elr/report: per day (the lab's, LAB_TIME_ZONE) of the last ELR_REPORT_DAYS, the reports
 * queued and how far they got; the newest batch files; the newest messages.
 */
export async function elrReport(ctx: Ctx & Pick<ServerContext, 'config'>): Promise<ElrReportView> {
  const days = await ctx.db.sequelize.query<DayRow>(
    `SELECT to_char(created_at AT TIME ZONE :tz, 'YYYY-MM-DD') AS day, count(*)::int AS reported,
            count(*) FILTER (WHERE attempts > 0 OR status = :batched)::int AS sent,
            count(*) FILTER (WHERE status = :acknowledged)::int AS acknowledged,
            count(*) FILTER (WHERE status = :batched)::int AS batched,
            count(*) FILTER (WHERE status = :failed)::int AS failed,
            count(*) FILTER (WHERE status = :pending)::int AS pending
       FROM hl7_messages
      WHERE destination = :publicHealth AND created_at >= (date_trunc('day', now() AT TIME ZONE :tz) - make_interval(days => :days - 1)) AT TIME ZONE :tz
      GROUP BY 1 ORDER BY 1 DESC`,
    {
      replacements: {
        tz: ctx.config.labTimeZone, publicHealth: Hl7MessageDestination.PublicHealth, days: ELR_REPORT_DAYS, batched: Hl7MessageStatus.Batched,
        acknowledged: Hl7MessageStatus.Acknowledged, failed: Hl7MessageStatus.Failed, pending: Hl7MessageStatus.Pending,
      },
      type: QueryTypes.SELECT,
    },
  );
  const batches = await ctx.db.sequelize.query<BatchRow>(
    'SELECT id, file_name, message_count, created_at, written_at FROM elr_batches ORDER BY id DESC LIMIT :limit',
    { replacements: { limit: REPORT_BATCHES }, type: QueryTypes.SELECT },
  );
  const messages = await listHl7Messages(ctx, { destination: Hl7MessageDestination.PublicHealth });
  return { days, batches: batches.map(batchViewOf), messages };
}

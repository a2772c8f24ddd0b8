/**
 * Public health's daily batch file (issue 28, item 4, mode "batch-file"): the reports of a finished
 * day (the lab's day, LAB_TIME_ZONE) as one HL7 batch file, FHS / BHS, each ORU^R01, BTS / FTS, written to the admin's folder
 * inside the configured batch root. A worker looks every few minutes (scanners.ts); the admin can
 * write what waits at once.
 *
 * Exactly once: one transaction takes the waiting messages (locked, skipping those another worker
 * holds), builds the file, stores it as a batch row and marks the messages Batched with it; the
 * file is written from the row after the commit, under a temporary name then renamed, and the row
 * marked written. A crash between the two leaves a row unwritten, which the next look writes.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { QueryTypes, type Transaction } from 'sequelize';
import { ElrMode, Hl7MessageDestination, Hl7MessageStatus, labDayOf, startOfLabDay, type ElrBatchView } from '@platform/domain';
import type { Hl7Segment } from '@medplum/core';
import type { ServerContext } from '../context';
import type { Config } from '../config';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict } from '../errors';
import { buildResultOru } from './oru';
import { field, headerSegment, hl7Timestamp, segment } from './fields';
import { messageRows } from './result-messages';
import { resultOruInput, sendingApplicationOf } from './result-input';
import { batchViewOf, elrSettingsRow } from './public-health';

type Ctx = Pick<ServerContext, 'db' | 'config'>;

interface BatchHeader {
  id: number;
  fileName: string;
  createdAt: Date;
  receivingApplication: string;
  receivingFacility: string;
}

/** ELR_<CLIA>_<YYYYMMDD>_<batch id>.hl7: the lab, the lab's day written, and a number never used twice. */
const fileNameOf = (config: Pick<Config, 'lab' | 'labTimeZone'>, id: number, at: Date) =>
  `ELR_${config.lab.cliaNumber}_${labDayOf(at, config.labTimeZone).replaceAll('-', '')}_${id}.hl7`;

/** FHS-3..11 and BHS-3..11 share their first six fields: who sends, who receives, when. */
function batchHeaderFields(config: Pick<Config, 'brand' | 'lab'>, h: BatchHeader) {
  return [
    /* 3 */ field(sendingApplicationOf(config), config.lab.cliaNumber, 'CLIA'),
    /* 4 */ field(config.lab.name.slice(0, 20).trim(), config.lab.cliaNumber, 'CLIA'),
    /* 5 */ field(h.receivingApplication),
    /* 6 */ field(h.receivingFacility),
    /* 7 */ field(hl7Timestamp(h.createdAt)),
    /* 8 */ undefined,
  ];
}

/** The batch file's text: FHS, BHS, the messages, BTS (their count), FTS (one batch); every segment ends with CR. */
function batchFileText(config: Pick<Config, 'brand' | 'lab'>, h: BatchHeader, messages: readonly string[]): string {
  const shared = batchHeaderFields(config, h);
  const segments: Hl7Segment[] = [
    headerSegment('FHS', [...shared, /* 9 */ field(h.fileName), /* 10 */ undefined, /* 11 */ field(`F${h.id}`)]),
    headerSegment('BHS', [...shared, /* 9 */ undefined, /* 10 */ undefined, /* 11 */ field(`B${h.id}`)]),
  ];
  const trailer = [segment('BTS', [field(String(messages.length))]), segment('FTS', [field('1')])];
  return [...segments.map(String), ...messages, ...trailer.map(String)].join('\r') + '\r';
}

/**
 * Takes the reports waiting for a batch file (queued before `until`) into a new batch, in one
 * transaction. Null when reporting is not in batch-file mode or nothing waits.
 */
async function takeWaitingReports(ctx: Ctx, until: Date, caller: Caller | null): Promise<ElrBatchView | null> {
  const userId = caller?.userId ?? null;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const settings = await elrSettingsRow(ctx, transaction);
    if (!settings?.enabled || settings.mode !== ElrMode.BatchFile || !settings.folder) return null;
    const ids = await waitingReportIds(ctx, transaction, until);
    if (!ids.length) return null;
    const rows = await messageRows(ctx, ids, transaction);
    const [{ id }] = await ctx.db.sequelize.query<{ id: string }>("SELECT nextval('elr_batches_id_seq') AS id", { type: QueryTypes.SELECT, transaction });
    const createdAt = new Date();
    const header: BatchHeader = {
      id: Number(id), fileName: fileNameOf(ctx.config, Number(id), createdAt), createdAt,
      receivingApplication: settings.receiving_application, receivingFacility: settings.receiving_facility,
    };
    const messages = rows.map((row) => buildResultOru(resultOruInput(ctx.config, row, null)).toString());
    const [batch] = await ctx.db.sequelize.query<{ id: string; file_name: string; message_count: number; created_at: Date; written_at: Date | null }>(
      `INSERT INTO elr_batches (id, file_name, folder, message_count, content, created_by_user_id, created_at, updated_at)
       VALUES (:id, :fileName, :folder, :count, :content, :userId, :createdAt, :createdAt)
       RETURNING id, file_name, message_count, created_at, written_at`,
      {
        replacements: { id: header.id, fileName: header.fileName, folder: settings.folder, count: messages.length, content: batchFileText(ctx.config, header, messages), userId, createdAt },
        type: QueryTypes.SELECT, transaction,
      },
    );
    await ctx.db.sequelize.query(
      `UPDATE hl7_messages SET status = :batched, batch_id = :batchId, attempts = attempts + 1, last_attempt_at = :createdAt, updated_at = now()
        WHERE id IN (:ids)`,
      { replacements: { batched: Hl7MessageStatus.Batched, batchId: header.id, createdAt, ids }, transaction },
    );
    if (caller) {
      await recordAudit(ctx.db, { ...auditActor(caller), action: 'elr_batch.written', details: { batchId: header.id, fileName: header.fileName, messages: ids.length } }, transaction);
    }
    return batchViewOf(batch);
  });
}

async function waitingReportIds(ctx: Ctx, transaction: Transaction, until: Date): Promise<number[]> {
  const rows = await ctx.db.sequelize.query<{ id: string }>(
    `SELECT id FROM hl7_messages
      WHERE destination = :publicHealth AND status = :pending AND batch_id IS NULL AND created_at < :until
      ORDER BY id FOR UPDATE SKIP LOCKED`,
    { replacements: { publicHealth: Hl7MessageDestination.PublicHealth, pending: Hl7MessageStatus.Pending, until }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((r) => Number(r.id));
}

/** The folder a batch goes to: inside the root whatever the row says (the body's rule is checked again here). */
function folderPath(root: string, folder: string): string {
  const resolved = path.resolve(root, folder);
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) throw new Error('ELR batch folder outside the batch root');
  return resolved;
}

/** Writes every batch not yet written (oldest first), each under a temporary name then renamed. Answers how many were written. */
export async function writeElrBatchFiles(ctx: Ctx): Promise<number> {
  const unwritten = await ctx.db.sequelize.query<{ id: string; file_name: string; folder: string; content: string }>(
    'SELECT id, file_name, folder, content FROM elr_batches WHERE written_at IS NULL ORDER BY id', { type: QueryTypes.SELECT },
  );
  for (const batch of unwritten) {
    const folder = folderPath(ctx.config.elrBatchRoot, batch.folder);
    await mkdir(folder, { recursive: true });
    const target = path.join(folder, batch.file_name);
    await writeFile(`${target}.part`, batch.content, { encoding: 'utf8', mode: 0o640 });
    await rename(`${target}.part`, target);
    await ctx.db.sequelize.query('UPDATE elr_batches SET written_at = now(), updated_at = now() WHERE id = :id AND written_at IS NULL', { replacements: { id: batch.id } });
  }
  return unwritten.length;
}

/** The scanner's look: the finished days' reports (the lab's days) as a batch, then every batch not yet written. */
export async function writeDueElrBatches(ctx: Ctx, { now }: { now: Date }): Promise<{ batched: number; written: number }> {
  const batch = await takeWaitingReports(ctx, startOfLabDay(now, ctx.config.labTimeZone), null);
  const written = await writeElrBatchFiles(ctx);
  return { batched: batch?.messages ?? 0, written };
}

/** POST /api/admin/public-health/elr/batches: what waits, today's included, as a batch file now (audited). */
export async function writeElrBatchNow(ctx: Ctx, caller: Caller): Promise<ElrBatchView> {
  const settings = await elrSettingsRow(ctx);
  if (!settings?.enabled || settings.mode !== ElrMode.BatchFile) throw conflict('Public health reporting is not set to a daily batch file');
  const batch = await takeWaitingReports(ctx, new Date(), caller);
  if (!batch) throw conflict('No reports are waiting for a batch file');
  await writeElrBatchFiles(ctx);
  const [row] = await ctx.db.sequelize.query<Parameters<typeof batchViewOf>[0]>(
    'SELECT id, file_name, message_count, created_at, written_at FROM elr_batches WHERE id = :id', { replacements: { id: batch.id }, type: QueryTypes.SELECT },
  );
  return batchViewOf(row);
}

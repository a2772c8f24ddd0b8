/**
 * Bulk email campaigns (SPEC §7 send-email/portal-feedback-request and /portal-signup-reminder):
 * who they write to, what a preview shows, and starting one. Starting writes the campaign, one
 * recipient row per person and the 'email-campaign' job in one transaction; the worker then
 * writes each person's email (worker/src/processors/email-campaign.ts) and send-email sends it.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import {
  AccessStatus, CAMPAIGN_MAX_RECIPIENTS, EmailStatus, fullName, UserKind,
  type CampaignAudience, type CampaignPreview, type CampaignProgress, type CampaignRecipientRow, type EmailCampaign,
} from '@platform/domain';
import type { Config } from '../config';
import { badRequest, notFound } from '../errors';
import { auditActor, recordAudit, type Caller } from '../audit';
import { enqueueJob, type OutboxRelay } from '../jobs/outbox';
import { queueEmailBatch } from './queue-email';
import { CAMPAIGN_EMAILS } from './templates';

type CampaignCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'brand' | 'publicUrl'> };

/** One person a campaign writes to: an approved provider contact with an active sign-in. */
export interface AudienceMember {
  contactId: number;
  firstName: string;
  lastName: string;
  /** The address they sign in with. */
  email: string;
}

const PREVIEW_SAMPLE_SIZE = 5;
/** The preview shows the email as written for "[first name]": each person gets their own. */
const PREVIEW_FIRST_NAME = '[first name]';
const RECIPIENT_INSERT_CHUNK = 1000;

/**
 * The audience as SQL: approved contacts whose user is an active provider, with at least one
 * active membership of an active account; that one membership must also be in the chosen accounts
 * and have one of the chosen roles (when any are chosen). One row per contact.
 */
function audienceFrom(audience: CampaignAudience): { sql: string; replacements: Record<string, unknown> } {
  const membership = ['m.contact_id = c.id', 'm.is_active', 'a.is_active'];
  if (audience.accountIds.length) membership.push('m.account_id IN (:accountIds)');
  if (audience.roles.length) membership.push('m.role IN (:roles)');
  const where = [
    'c.access_status = :approved',
    'u.is_active',
    'u.kind = :provider',
    `EXISTS (SELECT 1 FROM account_memberships m JOIN accounts a ON a.id = m.account_id WHERE ${membership.join(' AND ')})`,
  ];
  if (audience.neverSignedIn) where.push('u.last_login_at IS NULL');
  return {
    sql: `FROM contacts c JOIN users u ON u.id = c.user_id WHERE ${where.join(' AND ')}`,
    replacements: { approved: AccessStatus.Approved, provider: UserKind.Provider, accountIds: audience.accountIds, roles: audience.roles },
  };
}

export async function countAudience(db: Db, audience: CampaignAudience, transaction?: Transaction): Promise<number> {
  const { sql, replacements } = audienceFrom(audience);
  const [row] = await db.sequelize.query<{ count: number }>(`SELECT count(*) AS count ${sql}`, { replacements, type: QueryTypes.SELECT, transaction });
  return row.count;
}

/** The audience's people by name (at most `limit` of them). */
export async function audienceMembers(db: Db, audience: CampaignAudience, limit: number, transaction?: Transaction): Promise<AudienceMember[]> {
  const { sql, replacements } = audienceFrom(audience);
  return db.sequelize.query<AudienceMember>(
    `SELECT c.id AS "contactId", c.first_name AS "firstName", c.last_name AS "lastName", u.email AS email ${sql}
     ORDER BY lower(c.last_name), lower(c.first_name), c.id LIMIT :limit`,
    { replacements: { ...replacements, limit }, type: QueryTypes.SELECT, transaction },
  );
}

/** A campaign goes to somebody, and to no more than CAMPAIGN_MAX_RECIPIENTS people. */
function checkAudienceSize(count: number): void {
  if (count === 0) {
    throw badRequest('No one matches this audience', [{ field: 'audience', message: 'No approved, active provider user matches this audience' }]);
  }
  if (count > CAMPAIGN_MAX_RECIPIENTS) {
    const message = `This audience is larger than ${CAMPAIGN_MAX_RECIPIENTS.toLocaleString('en-US')} people: narrow it by account or role`;
    throw badRequest(message, [{ field: 'audience', message }]);
  }
}

/** POST send-email/{campaign} with preview: how many people, the first few, and the email. */
export async function previewCampaign(
  ctx: Pick<CampaignCtx, 'db' | 'config'>, campaign: EmailCampaign, audience: CampaignAudience,
): Promise<CampaignPreview> {
  const [recipientCount, sample] = await Promise.all([
    countAudience(ctx.db, audience),
    audienceMembers(ctx.db, audience, PREVIEW_SAMPLE_SIZE),
  ]);
  const email = CAMPAIGN_EMAILS[campaign]({ brand: ctx.config.brand, publicUrl: ctx.config.publicUrl, firstName: PREVIEW_FIRST_NAME });
  return {
    campaign,
    recipientCount,
    sampleRecipients: sample.map((m) => ({ name: fullName(m), email: m.email })),
    subject: email.subject,
    text: email.text,
  };
}

/**
 * POST send-email/{campaign}: the campaign row, a recipient row per person and the job that
 * writes their emails, with the audit event, in one transaction. Answers its progress (nothing
 * queued yet).
 */
export async function startCampaign(ctx: CampaignCtx, caller: Caller, campaign: EmailCampaign, audience: CampaignAudience): Promise<CampaignProgress> {
  const campaignId = await ctx.db.sequelize.transaction(async (transaction) => {
    const members = await audienceMembers(ctx.db, audience, CAMPAIGN_MAX_RECIPIENTS + 1, transaction);
    checkAudienceSize(members.length);
    const run = await ctx.db.models.EmailCampaignRun.create(
      { campaign, audience, recipientCount: members.length, createdByUserId: caller.userId },
      { transaction },
    );
    await writeRecipients(ctx.db, transaction, run.id, members);
    const { jobRowId } = await enqueueJob(ctx, transaction, 'email-campaign', { campaignId: run.id }, {
      idempotencyKey: `email-campaign:${run.id}`,
      createdByUserId: caller.userId,
    });
    await run.update({ jobId: jobRowId }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'email_campaign.started', entityKind: 'email_campaign', entityId: run.id,
      details: { campaign, audience: { ...audience }, recipientCount: members.length, jobId: jobRowId },
    }, transaction);
    return run.id;
  });
  return campaignProgress(ctx.db, campaignId);
}

async function writeRecipients(db: Db, transaction: Transaction, campaignId: number, members: AudienceMember[]): Promise<void> {
  for (let i = 0; i < members.length; i += RECIPIENT_INSERT_CHUNK) {
    const chunk = members.slice(i, i + RECIPIENT_INSERT_CHUNK);
    await db.models.EmailCampaignRecipient.bulkCreate(
      chunk.map((m) => ({ campaignId, contactId: m.contactId, toAddress: m.email })),
      { transaction, returning: false },
    );
  }
}

/** A campaign with its counts: queued = recipients whose email is written; sent and failed from the email log. */
const PROGRESS_SELECT = `
  SELECT c.id, c.campaign, c.recipient_count AS "recipientCount", s.queued, s.sent, s.failed,
         c.job_id AS "jobId", j.status AS "jobStatus", c.created_at AS "createdAt"
  FROM email_campaigns c
  LEFT JOIN jobs j ON j.id = c.job_id
  CROSS JOIN LATERAL (
    SELECT count(r.email_id) AS queued,
           count(*) FILTER (WHERE e.status = :sent) AS sent,
           count(*) FILTER (WHERE e.status = :failed) AS failed
    FROM email_campaign_recipients r LEFT JOIN emails e ON e.id = r.email_id
    WHERE r.campaign_id = c.id
  ) s`;

type ProgressRow = Omit<CampaignProgress, 'createdAt'> & { createdAt: Date };
const progressOf = (row: ProgressRow): CampaignProgress => ({ ...row, createdAt: row.createdAt.toISOString() });

/** GET email-campaigns/{id} */
export async function campaignProgress(db: Db, campaignId: number): Promise<CampaignProgress> {
  const [row] = await db.sequelize.query<ProgressRow>(`${PROGRESS_SELECT} WHERE c.id = :campaignId`, {
    replacements: { campaignId, sent: EmailStatus.Sent, failed: EmailStatus.Failed },
    type: QueryTypes.SELECT,
  });
  if (!row) throw notFound('Email campaign not found');
  return progressOf(row);
}

export interface PageRequest { page: number; pageSize: number }
const limitOffset = (p: PageRequest) => ({ limit: p.pageSize, offset: (p.page - 1) * p.pageSize });

/** GET email-campaigns: newest first. */
export async function listCampaigns(db: Db, page: PageRequest): Promise<{ rows: CampaignProgress[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.sequelize.query<ProgressRow>(`${PROGRESS_SELECT} ORDER BY c.id DESC LIMIT :limit OFFSET :offset`, {
      replacements: { sent: EmailStatus.Sent, failed: EmailStatus.Failed, ...limitOffset(page) },
      type: QueryTypes.SELECT,
    }),
    db.models.EmailCampaignRun.count(),
  ]);
  return { rows: rows.map(progressOf), total };
}

interface RecipientSqlRow {
  contactId: number;
  firstName: string;
  lastName: string;
  toAddress: string;
  emailId: number | null;
  status: EmailStatus | null;
  sentAt: Date | null;
}

/** GET email-campaigns/{id}/recipients: in the order they were written; 'Not queued' until the job wrote their email. */
export async function campaignRecipients(db: Db, campaignId: number, page: PageRequest): Promise<{ rows: CampaignRecipientRow[]; total: number }> {
  const run = await db.models.EmailCampaignRun.findByPk(campaignId, { attributes: ['id', 'recipientCount'] });
  if (!run) throw notFound('Email campaign not found');
  const rows = await db.sequelize.query<RecipientSqlRow>(
    `SELECT r.contact_id AS "contactId", c.first_name AS "firstName", c.last_name AS "lastName", r.to_address AS "toAddress",
            r.email_id AS "emailId", e.status, e.sent_at AS "sentAt"
     FROM email_campaign_recipients r
     JOIN contacts c ON c.id = r.contact_id
     LEFT JOIN emails e ON e.id = r.email_id
     WHERE r.campaign_id = :campaignId
     ORDER BY r.id LIMIT :limit OFFSET :offset`,
    { replacements: { campaignId, ...limitOffset(page) }, type: QueryTypes.SELECT },
  );
  return {
    total: run.recipientCount,
    rows: rows.map((r) => ({
      contactId: r.contactId,
      name: fullName(r),
      toAddress: r.toAddress,
      emailId: r.emailId,
      status: r.status ?? 'Not queued',
      sentAt: r.sentAt ? r.sentAt.toISOString() : null,
    })),
  };
}


/** What one run of the campaign job's loop did. */
export interface CampaignBatch {
  /** Emails written by this batch (0: nobody is left). */
  queued: number;
}

/**
 * Writes the emails of the next `size` recipients who have none, in one transaction: the email
 * rows, the one send-email-batch job that sends them, and each recipient's email_id, one statement
 * per kind of row. A retried, resumed or concurrent run of the job skips whoever has one, so nobody
 * is written two emails: the rows are locked, and a second run skips the ones a first still holds.
 */
export async function queueCampaignBatch(ctx: CampaignCtx, campaignId: number, size: number): Promise<CampaignBatch> {
  const { db } = ctx;
  return db.sequelize.transaction(async (transaction) => {
    const run = await db.models.EmailCampaignRun.findByPk(campaignId, { transaction });
    if (!run) throw notFound(`Email campaign ${campaignId} not found`);
    const recipients = await db.sequelize.query<{ id: number; toAddress: string; firstName: string }>(
      `SELECT r.id, r.to_address AS "toAddress", c.first_name AS "firstName"
       FROM email_campaign_recipients r JOIN contacts c ON c.id = r.contact_id
       WHERE r.campaign_id = :campaignId AND r.email_id IS NULL
       ORDER BY r.id LIMIT :size
       FOR UPDATE OF r SKIP LOCKED`,
      { replacements: { campaignId, size }, type: QueryTypes.SELECT, transaction },
    );
    const write = CAMPAIGN_EMAILS[run.campaign];
    const emails = await queueEmailBatch(ctx, transaction, recipients.map((r) => ({
      to: r.toAddress,
      ...write({ brand: ctx.config.brand, publicUrl: ctx.config.publicUrl, firstName: r.firstName }),
    })), run.createdByUserId);
    await db.sequelize.query(
      `UPDATE email_campaign_recipients AS r SET email_id = v.email_id, updated_at = now()
         FROM unnest($1::bigint[], $2::bigint[]) AS v(id, email_id) WHERE r.id = v.id`,
      { bind: [recipients.map((r) => r.id), emails.map((e) => e.id)], type: QueryTypes.UPDATE, transaction },
    );
    return { queued: recipients.length };
  });
}

/** How many of a campaign's recipients have their email written, of how many. */
export async function campaignQueuedCount(db: Db, campaignId: number): Promise<{ queued: number; total: number }> {
  const [row] = await db.sequelize.query<{ queued: number; total: number }>(
    `SELECT count(email_id) AS queued, count(*) AS total FROM email_campaign_recipients WHERE campaign_id = :campaignId`,
    { replacements: { campaignId }, type: QueryTypes.SELECT },
  );
  return row;
}

/**
 * The admin's email log: every email the platform wrote, newest first, without bodies (a sent
 * link's token is not shown, even redacted), and sending one again as a new logged email.
 */
import { QueryTypes } from 'sequelize';
import { EmailStatus, type EmailLogRow, type EmailsQuery } from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, notFound } from '../errors';
import { queueEmail } from './queue-email';
import { SINGLE_USE_LINK_TEMPLATES } from './templates';
import type { ServerContext } from '../context';
import { containsPattern, toIso } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

interface EmailSqlRow extends Omit<EmailLogRow, 'sentAt' | 'createdAt'> {
  sentAt: Date | null;
  createdAt: Date;
}

/** The log's columns: never text_body or html_body. */
const LOG_COLUMNS = `e.id, e.to_address AS "toAddress", e.subject, e.template, e.status, e.error, e.sent_at AS "sentAt",
  e.created_at AS "createdAt", r.campaign_id AS "campaignId"`;
const LOG_FROM = 'FROM emails e LEFT JOIN email_campaign_recipients r ON r.email_id = e.id';

const logRowOf = (r: EmailSqlRow): EmailLogRow => ({ ...r, sentAt: toIso(r.sentAt), createdAt: r.createdAt.toISOString() });

function logFilter(query: EmailsQuery): { where: string; replacements: Record<string, unknown> } {
  const where: string[] = [];
  if (query.q) where.push('(e.to_address ILIKE :pattern OR e.subject ILIKE :pattern)');
  if (query.status) where.push('e.status = :status');
  if (query.template) where.push('e.template = :template');
  return {
    where: where.length ? `WHERE ${where.join(' AND ')}` : '',
    replacements: { pattern: containsPattern(query.q), status: query.status, template: query.template },
  };
}

/** GET admin/emails: the caller's view of addresses (some are patients') is audited. */
export async function listEmails(ctx: Ctx, caller: UserCaller, query: EmailsQuery): Promise<{ rows: EmailLogRow[]; total: number }> {
  const { where, replacements } = logFilter(query);
  const { rows, total } = await auditedPage<EmailSqlRow>(ctx.db, {
    select: `SELECT ${LOG_COLUMNS} ${LOG_FROM} ${where} ORDER BY e.id DESC LIMIT :limit OFFSET :offset`,
    fromWhere: `${LOG_FROM} ${where}`,
    replacements: { ...replacements, limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) },
    audit: { ...auditActor(caller), action: 'email_log.viewed', details: { filter: { q: query.q || null, status: query.status, template: query.template }, page: query.page } },
    idsKey: 'emailIds',
  });
  return { rows: rows.map(logRowOf), total };
}

async function emailLogRow(ctx: Ctx, emailId: number): Promise<EmailLogRow> {
  const [row] = await ctx.db.sequelize.query<EmailSqlRow>(`SELECT ${LOG_COLUMNS} ${LOG_FROM} WHERE e.id = :emailId`, {
    replacements: { emailId },
    type: QueryTypes.SELECT,
  });
  if (!row) throw notFound('Email not found');
  return logRowOf(row);
}

/**
 * POST admin/emails/{id}/resend: a new logged email with the same subject, text and template.
 * Refused for an email that carried a single-use link (its token is gone from the log; the person
 * asks for a new link) and for one not sent yet (it is still on its way).
 */
export async function resendEmail(ctx: Ctx, caller: UserCaller, emailId: number): Promise<EmailLogRow> {
  const newId = await ctx.db.sequelize.transaction(async (transaction) => {
    const email = await ctx.db.models.Email.findByPk(emailId, { transaction });
    if (!email) throw notFound('Email not found');
    if (email.template && SINGLE_USE_LINK_TEMPLATES.includes(email.template)) {
      throw conflict(`This email (${email.template}) carried a single-use link and cannot be sent again: the person needs a new link instead`);
    }
    if (email.status === EmailStatus.Pending) throw conflict('This email has not been sent yet: it cannot be sent again until it has been sent or has failed');
    const copy = await queueEmail(ctx, transaction, {
      to: email.toAddress,
      subject: email.subject,
      text: email.textBody,
      html: email.htmlBody ?? undefined,
      template: email.template as string, // the same template (null, for an email written before templates had names, stays null)
      entity: email.entityKind && email.entityId ? { kind: email.entityKind, id: email.entityId } : undefined,
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'email.resent', entityKind: 'email', entityId: copy.id,
      details: { resentFromEmailId: email.id, template: email.template, before: { status: email.status }, after: { emailId: copy.id, status: EmailStatus.Pending } },
    }, transaction);
    return copy.id;
  });
  return emailLogRow(ctx, newId);
}

/**
 * Patient invitations of a clinic account: an email with a single-use link to the order page of a
 * product, with the clinic and the test filled in (token random, only its hash stored, valid
 * PATIENT_INVITATION_DAYS). Resending makes a new link (the old one stops working) with a new
 * expiry; cancelling stops the link. Another account's invitation is a 404.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { PatientInvitation } from '@platform/db';
import {
  DEFAULT_LANGUAGE, fullName, InvitationStatus, PATIENT_INVITATION_DAYS, PATIENT_PRODUCT_TEST_NAMES, type CreateInvitationBody, type PaginationQuery,
  type PatientInvitationRow, type UpdateInvitationBody,
} from '@platform/domain';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { conflict, notFound } from '../errors';
import { patientInvitationEmail } from '../email/templates';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { hashToken } from '../auth/tokens';
import { offsetOf } from '../paging';
import { toIso } from '../answer-values';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

const DAY_MS = 24 * 60 * 60 * 1000;

export const invitationLink = (publicUrl: string, product: string, token: string) => `${publicUrl}/patient-portal/order/${product}/new?invitation=${token}`;

function rowOf(i: PatientInvitation): PatientInvitationRow {
  return {
    id: i.id, email: i.email, firstName: i.firstName, lastName: i.lastName, product: i.product, status: i.status,
    expiresAt: toIso(i.expiresAt)!, lastSentAt: toIso(i.lastSentAt), sendCount: i.sendCount,
    orderNumber: i.order?.orderNumber ?? null, createdBy: i.createdBy ? fullName(i.createdBy) : null, createdAt: toIso(i.createdAt)!,
  };
}

const INCLUDES = (ctx: Ctx) => [
  { model: ctx.db.models.Order, as: 'order', attributes: ['id', 'orderNumber'] },
  { model: ctx.db.models.User, as: 'createdBy', attributes: ['firstName', 'lastName'] },
];

export async function listInvitations(ctx: Ctx, caller: AccountCaller, query: PaginationQuery): Promise<{ rows: PatientInvitationRow[]; total: number }> {
  const { rows, count } = await ctx.db.models.PatientInvitation.findAndCountAll({
    where: { accountId: caller.accountId },
    include: INCLUDES(ctx),
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: query.pageSize,
    offset: offsetOf(query.page, query.pageSize),
    distinct: true,
  });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'patient_invitations.listed', entityKind: 'patient', details: { accountId: caller.accountId, invitationIds: rows.map((r) => r.id) } });
  return { rows: rows.map(rowOf), total: count };
}

/** A new token on the invitation and the email carrying its link. */
async function send(ctx: Ctx, caller: AccountCaller, invitation: PatientInvitation, transaction: Transaction): Promise<number> {
  const token = randomBytes(32).toString('hex');
  const now = new Date();
  await invitation.update(
    { tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + PATIENT_INVITATION_DAYS * DAY_MS), lastSentAt: now, sendCount: (invitation.sendCount ?? 0) + 1 },
    { transaction },
  );
  const account = await ctx.db.models.Account.findByPk(caller.accountId, { transaction });
  // A patient already known writes in their language; a new one gets English until they choose on the order page.
  const patient = invitation.patientId ? await ctx.db.models.Patient.findByPk(invitation.patientId, { attributes: ['preferredLanguage'], transaction }) : null;
  const email = await queueEmail(ctx, transaction, {
    to: invitation.email,
    ...patientInvitationEmail({
      language: patient?.preferredLanguage ?? DEFAULT_LANGUAGE,
      brand: ctx.config.brand, firstName: invitation.firstName, accountName: account?.name ?? '', productName: PATIENT_PRODUCT_TEST_NAMES[invitation.product],
      link: invitationLink(ctx.config.publicUrl, invitation.product, token),
    }),
    createdByUserId: caller.userId,
  });
  return email.id;
}

async function reload(ctx: Ctx, id: number, transaction: Transaction): Promise<PatientInvitationRow> {
  return rowOf((await ctx.db.models.PatientInvitation.findByPk(id, { include: INCLUDES(ctx), transaction }))!);
}

export async function createInvitation(ctx: Ctx, caller: AccountCaller, body: CreateInvitationBody): Promise<PatientInvitationRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const invitation = await ctx.db.models.PatientInvitation.create(
      {
        accountId: caller.accountId, patientId: null, email: body.email, firstName: body.firstName, lastName: body.lastName, product: body.product,
        status: InvitationStatus.Requested, tokenHash: hashToken(randomBytes(32).toString('hex')), createdByUserId: caller.userId,
        expiresAt: new Date(Date.now() + PATIENT_INVITATION_DAYS * DAY_MS), sendCount: 0,
      },
      { transaction },
    );
    const emailId = await send(ctx, caller, invitation, transaction);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_invitation.created', entityKind: 'patient', entityId: null,
      details: { invitationId: invitation.id, accountId: caller.accountId, product: body.product, emailId },
    }, transaction);
    return reload(ctx, invitation.id, transaction);
  });
}

export async function updateInvitation(ctx: Ctx, caller: AccountCaller, body: UpdateInvitationBody): Promise<PatientInvitationRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const invitation = await ctx.db.models.PatientInvitation.findOne({ where: { id: body.id, accountId: caller.accountId }, lock: transaction.LOCK.UPDATE, transaction });
    if (!invitation) throw notFound('Invitation not found');
    if (invitation.status === InvitationStatus.Accepted) throw conflict('This invitation has already been used');
    if (invitation.status === InvitationStatus.Cancelled) throw conflict('This invitation was cancelled');
    let emailId: number | null = null;
    if (body.action === 'resend') emailId = await send(ctx, caller, invitation, transaction);
    else await invitation.update({ status: InvitationStatus.Cancelled }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: `patient_invitation.${body.action === 'resend' ? 'resent' : 'cancelled'}`, entityKind: 'patient', entityId: invitation.patientId,
      details: { invitationId: invitation.id, accountId: caller.accountId, emailId },
    }, transaction);
    return reload(ctx, invitation.id, transaction);
  });
}

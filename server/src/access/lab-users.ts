/** Lab toolbox users: the lab's people who sign in to the Lab Toolbox (each also a LIMS technician). */
import type { User } from '@platform/db';
import { UserKind, fullName, type CreateLabUserBody, type LabUserCreated, type LabUserRow } from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, notFound } from '../errors';
import type { ServerContext } from '../context';
import { endSessionsOf } from './password-links';
import { assertEmailFree, createSignInUser, sendSetPasswordLink } from './new-users';
import { toIso } from '../answer-values';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

const labUserRow = (u: User): LabUserRow => ({
  id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, isActive: u.isActive, lastLoginAt: toIso(u.lastLoginAt), createdAt: toIso(u.createdAt)!,
});

export async function listLabUsers(ctx: Ctx): Promise<LabUserRow[]> {
  const users = await ctx.db.models.User.findAll({ where: { kind: UserKind.Lab }, order: [['isActive', 'DESC'], ['lastName', 'ASC'], ['firstName', 'ASC'], ['id', 'ASC']] });
  return users.map(labUserRow);
}

/** A lab user and their technician record; they are emailed a link to set their password. */
export async function createLabUser(ctx: Ctx, caller: Caller, body: CreateLabUserBody): Promise<LabUserCreated> {
  const user = await ctx.db.sequelize.transaction(async (transaction) => {
    await assertEmailFree(ctx, body.email, transaction);
    const created = await createSignInUser(ctx, transaction, { kind: UserKind.Lab, ...body });
    await ctx.db.models.Technician.create({ userId: created.id, firstName: body.firstName, lastName: body.lastName, email: created.email }, { transaction });
    await sendSetPasswordLink(ctx, transaction, created, 'lab', caller.userId);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_user.created', entityKind: 'user', entityId: created.id, details: { before: null, after: { email: created.email } } }, transaction);
    return created;
  });
  return {
    message: `Lab toolbox user ${user.firstName} ${user.lastName} added: an email to set a password is on its way to ${user.email}`,
    user: labUserRow(user),
  };
}

/** Deactivates a lab user (their results, reviews and history stay theirs); they are signed out at once. */
export async function deactivateLabUser(ctx: Ctx, caller: Caller, userId: number): Promise<LabUserRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const user = await ctx.db.models.User.findOne({ where: { id: userId, kind: UserKind.Lab }, transaction, lock: transaction.LOCK.UPDATE });
    if (!user) throw notFound('Lab toolbox user not found');
    if (user.id === caller.userId) throw conflict('You cannot deactivate yourself');
    const before = user.isActive;
    await user.update({ isActive: false }, { transaction });
    await endSessionsOf(ctx, user.id, transaction);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_user.deactivated', entityKind: 'user', entityId: user.id, details: { before: { isActive: before }, after: { isActive: false } } }, transaction);
    return labUserRow(user);
  });
}

/**
 * Reactivates a deactivated lab user: they can sign in to the Lab Toolbox again with the password
 * they had (or choose one through "Forgot password"). An active user is a 409: nothing to do.
 */
export async function reactivateLabUser(ctx: Ctx, caller: Caller, userId: number): Promise<LabUserRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const user = await ctx.db.models.User.findOne({ where: { id: userId, kind: UserKind.Lab }, transaction, lock: transaction.LOCK.UPDATE });
    if (!user) throw notFound('Lab toolbox user not found');
    if (user.isActive) throw conflict(`${fullName(user)} is already active`);
    await user.update({ isActive: true }, { transaction });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_user.reactivated', entityKind: 'user', entityId: user.id, details: { before: { isActive: false }, after: { isActive: true } } }, transaction);
    return labUserRow(user);
  });
}

/**
 * An account's Super Admin manages that account's users (the clinic's "Account users" page): the
 * same commands as the admin's, scoped to the URL's account (any other account id is a 404),
 * except adding a user, which invites them (account-invitations.service.ts).
 */
import { Router, type RequestHandler, type Response } from 'express';
import {
  ContactRow, AccountUserInvited, TwoFactorRequirement, twoFactorRequirementBody, AccountInvitationRow, ContactDetail, SupportStaffRow, shapes,
  AccountRole, activateDeactivateBody, addAccountAccessBody, contactInAccountBody, contactsQuery, registerProviderBody, staffLinksBody,
  type ContactsQuery,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import {
  activateDeactivate, addAccountAccess, addSuperAdmin, cancelInvitation, contactDetail, inviteToAccount, listContacts, oneAccount, pendingInvitations, removeAccountAccess, supportStaffOf, upsertStaffLinks,
} from '@platform/server';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers, answersPage } from '../http/answers';
import { accountTwoFactorRequirement, setAccountTwoFactorRequirement } from '@platform/server/access/sign-in';

export function accountUsersRouter(ctx: AppContext): Router {
  const router = Router();
  const superAdmin: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic', roles: [AccountRole.SuperAdmin] })];
  const path = (p: string) => `${CLINIC_API_BASE}/${p}`;
  const scopeOf = (res: Response) => oneAccount((res.locals.account as { id: number }).id);

  // "Require two-factor sign-in": the account's members without a factor enrol at their next sign-in.
  router.get(path('two-factor-requirement'), ...superAdmin, answers(200, TwoFactorRequirement), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ required: await accountTwoFactorRequirement(ctx, scopeOf(res).accountId) });
  });
  router.put(path('two-factor-requirement'), ...superAdmin, validateBody(twoFactorRequirementBody), answers(200, TwoFactorRequirement), async (req, res) => {
    res.json({ required: await setAccountTwoFactorRequirement(ctx, accountCallerOf(req, res), req.body.required) });
  });

  router.get(path('contacts'), ...superAdmin, validateQuery(contactsQuery), answersPage(ContactRow), async (_req, res) => {
    sendPage(res, await listContacts(ctx, scopeOf(res), res.locals.query as ContactsQuery));
  });
  // A Super Admin adds people by invitation: the same answer whoever the address belongs to (issue 24).
  router.post(path('contacts/create'), ...superAdmin, validateBody(registerProviderBody), answers(201, AccountUserInvited), async (req, res) => {
    res.status(201).json(await inviteToAccount(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  router.get(path('invitations'), ...superAdmin, answers(200, shapes.array(AccountInvitationRow)), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await pendingInvitations(ctx, scopeOf(res)));
  });
  router.post(path('invitations/:invitationId/cancel'), ...superAdmin, answers(200, shapes.array(AccountInvitationRow)), async (req, res) => {
    res.json(await cancelInvitation(ctx, accountCallerOf(req, res), scopeOf(res), pathId(req.params.invitationId, 'Invitation')));
  });
  router.get(path('contacts/:contactId'), ...superAdmin, answers(200, ContactDetail), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await contactDetail(ctx.db, pathId(req.params.contactId, 'User'), scopeOf(res)));
  });
  router.post(path('add-account-access'), ...superAdmin, validateBody(addAccountAccessBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await addAccountAccess(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  router.post(path('remove-account-access'), ...superAdmin, validateBody(contactInAccountBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await removeAccountAccess(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  router.post(path('add-super-admin'), ...superAdmin, validateBody(contactInAccountBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await addSuperAdmin(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  router.post(path('activate-deactivate'), ...superAdmin, validateBody(activateDeactivateBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await activateDeactivate(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  router.get(path('provider-staff-relationships/get-support-staff'), ...superAdmin, answers(200, shapes.array(SupportStaffRow)), async (_req, res) => {
    const scope = scopeOf(res);
    res.set('Cache-Control', 'no-store').json(await supportStaffOf(ctx.db, scope, scope.accountId));
  });
  router.post(path('provider-staff-relationships/upsert'), ...superAdmin, validateBody(staffLinksBody), answers(200, shapes.array(SupportStaffRow)), async (req, res) => {
    res.json(await upsertStaffLinks(ctx, accountCallerOf(req, res), scopeOf(res), req.body));
  });
  return router;
}

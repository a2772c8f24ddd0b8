/**
 * The admin portal's API, mounted at /api/admin behind one guard: internal admins only
 * (anonymous 401, provider and lab users 403). Paths are SPEC §7's names; docs/admin-api.md lists them.
 */
import { Router, type Response } from 'express';
import {
  AdminAttention, AdminAccountRow, ContactRow, ProviderRegistered, ContactDetail, SupportStaffRow, LabUserRow, LabUserCreated, InsurancePlanRow, AdminPatientOption, FinancialAidRow, CreatedFinancialAid, shapes,
  accountsQuery, activateDeactivateBody, addAccountAccessBody, contactInAccountBody, contactsQuery, createAccountBody, createFinancialAidBody,
  createLabUserBody, financialAidQuery, insurancePlanBody, registerProviderBody, staffLinksBody, supportStaffQuery, updateAccessBody, userIdBody,
  adminPatientSearchBody, contactNpiBody, type ContactNpiBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { answers, answersPage } from '../http/answers';
import {
  activateDeactivate, addAccountAccess, addSuperAdmin, adminAttention, ALL_ACCOUNTS, contactDetail, createAccount, createFinancialAid, createInsurancePlan, createLabUser, deactivateLabUser, listAccounts, listContacts, listFinancialAid, listInsurancePlans, listLabUsers, pendingContacts, reactivateLabUser, registerProvider, removeAccountAccess, searchAllPatients, setContactNpi, supportStaffOf, updateAccess, updateInsurancePlan, upsertStaffLinks,
} from '@platform/server';
import { adminAccountsRouter } from './accounts.routes';
import { adminEmailsRouter } from './emails.routes';
import { adminJobsRouter } from './jobs.routes';
import { adminApiClientsRouter } from './api-clients.routes';
import { adminHl7Router } from './hl7.routes';
import { adminAuditTrailRouter } from './audit-trail.routes';
import { adminPatientReleaseRouter } from './patient-release.routes';
import { adminTwoFactorRouter } from './two-factor.routes';
import { adminTurnaroundRouter } from './turnaround.routes';
import { adminResearchRouter } from './research.routes';

export function adminRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(requireUser('admin'));
  const query = <T>(res: Response) => res.locals.query as T;
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  router.get('/attention', answers(200, AdminAttention), async (_req, res) => {
    noStore(res).json(await adminAttention(ctx));
  });

  // Accounts
  router.get('/accounts', validateQuery(accountsQuery), answersPage(AdminAccountRow), async (_req, res) => {
    sendPage(res, await listAccounts(ctx, query(res)));
  });
  router.post('/accounts/create', validateBody(createAccountBody), answers(201, AdminAccountRow), async (req, res) => {
    res.status(201).json(await createAccount(ctx, userCallerOf(req, res), req.body));
  });

  // Provider people and their access
  router.get('/contacts', validateQuery(contactsQuery), answersPage(ContactRow), async (_req, res) => {
    sendPage(res, await listContacts(ctx, ALL_ACCOUNTS, query(res)));
  });
  router.get('/contacts/pending', answers(200, shapes.array(ContactRow)), async (_req, res) => {
    noStore(res).json(await pendingContacts(ctx));
  });
  router.post('/contacts/create', validateBody(registerProviderBody), answers(201, ProviderRegistered), async (req, res) => {
    res.status(201).json(await registerProvider(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });
  router.post('/contacts/update-access', validateBody(updateAccessBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await updateAccess(ctx, userCallerOf(req, res), req.body));
  });
  router.post('/contacts/:contactId/npi', validateBody(contactNpiBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await setContactNpi(ctx, userCallerOf(req, res), pathId(req.params.contactId, 'User'), (req.body as ContactNpiBody).npi));
  });
  router.get('/contacts/:contactId', answers(200, ContactDetail), async (req, res) => {
    noStore(res).json(await contactDetail(ctx.db, pathId(req.params.contactId, 'User'), ALL_ACCOUNTS));
  });
  router.post('/add-account-access', validateBody(addAccountAccessBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await addAccountAccess(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });
  router.post('/remove-account-access', validateBody(contactInAccountBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await removeAccountAccess(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });
  router.post('/add-super-admin', validateBody(contactInAccountBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await addSuperAdmin(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });
  router.post('/activate-deactivate', validateBody(activateDeactivateBody), answers(200, ContactDetail), async (req, res) => {
    res.json(await activateDeactivate(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });
  router.get('/provider-staff-relationships/get-support-staff', validateQuery(supportStaffQuery), answers(200, shapes.array(SupportStaffRow)), async (_req, res) => {
    noStore(res).json(await supportStaffOf(ctx.db, ALL_ACCOUNTS, query<{ accountId: number }>(res).accountId));
  });
  router.post('/provider-staff-relationships/upsert', validateBody(staffLinksBody), answers(200, shapes.array(SupportStaffRow)), async (req, res) => {
    res.json(await upsertStaffLinks(ctx, userCallerOf(req, res), ALL_ACCOUNTS, req.body));
  });

  // Lab toolbox users
  router.get('/lab-toolbox/users', answers(200, shapes.array(LabUserRow)), async (_req, res) => {
    noStore(res).json(await listLabUsers(ctx));
  });
  router.post('/lab-toolbox/users/create', validateBody(createLabUserBody), answers(201, LabUserCreated), async (req, res) => {
    res.status(201).json(await createLabUser(ctx, userCallerOf(req, res), req.body));
  });
  router.post('/lab-toolbox/users/delete', validateBody(userIdBody), answers(200, LabUserRow), async (req, res) => {
    res.json(await deactivateLabUser(ctx, userCallerOf(req, res), req.body.userId));
  });
  router.post('/lab-toolbox/users/reactivate', validateBody(userIdBody), answers(200, LabUserRow), async (req, res) => {
    res.json(await reactivateLabUser(ctx, userCallerOf(req, res), req.body.userId));
  });

  // Insurance plans
  router.get('/insurance-plans', answers(200, shapes.array(InsurancePlanRow)), async (_req, res) => {
    noStore(res).json(await listInsurancePlans(ctx, { activeOnly: false }));
  });
  router.post('/insurance-plans/create', validateBody(insurancePlanBody), answers(201, InsurancePlanRow), async (req, res) => {
    res.status(201).json(await createInsurancePlan(ctx, userCallerOf(req, res), req.body));
  });
  router.post('/insurance-plans/:planId/update', validateBody(insurancePlanBody), answers(200, InsurancePlanRow), async (req, res) => {
    res.json(await updateInsurancePlan(ctx, userCallerOf(req, res), pathId(req.params.planId, 'Insurance plan'), req.body));
  });

  // Patients and financial assistance (POST search: names and dates of birth stay out of URLs)
  router.post('/patients/search', validateBody(adminPatientSearchBody), answers(200, shapes.array(AdminPatientOption)), async (req, res) => {
    noStore(res).json(await searchAllPatients(ctx, userCallerOf(req, res), req.body.q));
  });
  router.get('/patients/financial-assistance', validateQuery(financialAidQuery), answersPage(FinancialAidRow), async (req, res) => {
    sendPage(res, await listFinancialAid(ctx, userCallerOf(req, res), query(res)));
  });
  router.post('/patients/financial-assistance/create', validateBody(createFinancialAidBody), answers(201, CreatedFinancialAid), async (req, res) => {
    noStore(res).status(201).json(await createFinancialAid(ctx, userCallerOf(req, res), req.body));
  });

  // The email log, bulk campaigns and the job monitor
  router.use(adminAccountsRouter(ctx));
  router.use(adminEmailsRouter(ctx));
  router.use(adminJobsRouter(ctx));
  router.use(adminApiClientsRouter(ctx));
  router.use(adminHl7Router(ctx));
  router.use(adminAuditTrailRouter(ctx));
  router.use(adminPatientReleaseRouter(ctx));
  router.use(adminTwoFactorRouter(ctx));
  router.use(adminTurnaroundRouter(ctx));
  router.use(adminResearchRouter(ctx));

  return router;
}

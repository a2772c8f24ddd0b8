import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessStatus, AccountRole, AccountType, UserKind, type ContactDetail, type Me } from '@platform/domain';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { describedText } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ToastHost } from '../../test/toasts';
import { AccountUsersPage, ONLY_SUPER_ADMINS } from './AccountUsersPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.SuperAdmin as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const meAs = (role: AccountRole): Me => ({
  user: { id: 70, kind: UserKind.Provider, email: 'superadmin@demo.test', firstName: 'Sam', lastName: 'Admin' },
  accounts: [{ ...riverside, role }],
  currentAccount: { ...riverside, role },
});

function contact(id: number, firstName: string, lastName: string, role: AccountRole, extra: Partial<ContactDetail> = {}): ContactDetail {
  return {
    id, firstName, lastName, email: `${firstName.toLowerCase()}@demo.test`, phone: null, title: role === AccountRole.Physician ? 'Physician' : 'Nurse',
    specialty: null, npi: role === AccountRole.Physician ? '1234567893' : null, accessStatus: AccessStatus.Approved, requestedAccountName: null,
    requestNote: null, decisionReason: null, decidedAt: null, userId: id + 100, userActive: true, lastLoginAt: null,
    memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role, isActive: true }], createdAt: '2026-01-01T00:00:00Z', staffLinks: [], ...extra,
  };
}

const paula = contact(10, 'Paula', 'Grant', AccountRole.Physician, { lastLoginAt: '2026-03-02T15:04:00Z' });
const omar = contact(11, 'Omar', 'Reyes', AccountRole.Physician);
const stella = contact(12, 'Stella', 'Moss', AccountRole.SupportStaff, {
  memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role: AccountRole.SupportStaff, isActive: false }],
});
const users = [paula, omar, stella];

function usersApi(me: Me, extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /auth/me': { body: me },
    'GET /provider-clinic/1/contacts': { body: users, headers: { 'x-total-count': String(users.length) } },
    'GET /provider-clinic/1/contacts/10': { body: paula },
    'GET /provider-clinic/1/contacts/12': { body: stella },
    'GET /provider-clinic/1/invitations': { body: [] },
    'GET /provider-clinic/1/provider-staff-relationships/get-support-staff': {
      body: [{ contactId: 12, name: 'Stella Moss', email: 'stella@demo.test', physicians: [{ contactId: 10, name: 'Paula Grant' }] }],
    },
    ...extra,
  });
}

const renderUsers = () =>
  renderPage(
    <>
      <AccountUsersPage />
      <ErrorModalHost />
      <ToastHost />
    </>,
    { path: '/provider-clinic/:accountId/users', route: '/provider-clinic/1/users' },
  );

/** Opens a select and picks one of its own options (several selects may offer the same word). */
async function pick(user: ReturnType<typeof userEvent.setup>, select: HTMLElement, option: string) {
  await user.click(select);
  await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(select.getAttribute('aria-controls')!)!;
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

/** Types into a field at once (a paste: the keystrokes are not what is tested here). */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

const usersTable = () => screen.findByRole('table', { name: 'Users of this account' });

/** jsdom answers no media query (a phone): these tests read the table of a wider screen, one the cards of a phone. */
const phoneMatchMedia = window.matchMedia;
const asDesktop = () => {
  window.matchMedia = (query: string) => ({ ...phoneMatchMedia(query), matches: true });
};

describe('AccountUsersPage', () => {
  beforeEach(asDesktop);
  afterEach(() => {
    window.matchMedia = phoneMatchMedia;
  });

  it("lists the account's users with their role, access here and last sign-in", async () => {
    const sent = usersApi(meAs(AccountRole.SuperAdmin));
    renderUsers();
    const table = await usersTable();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0].textContent).toContain('Grant, Paula');
    expect(rows[0].textContent).toContain('paula@demo.test');
    expect(rows[0].textContent).toContain('Physician');
    expect(rows[0].textContent).toContain('Active');
    expect(rows[0].textContent).not.toContain('Never');
    expect(rows[2].textContent).toContain('Support Staff');
    expect(rows[2].textContent).toContain('Inactive');
    expect(rows[2].textContent).toContain('Never');
    expect(screen.getByText('1–3 of 3 users')).toBeTruthy();
    expect(sent.find((r) => r.path.startsWith('/provider-clinic/1/contacts'))?.path).toBe('/provider-clinic/1/contacts?page=1&pageSize=10');
  });

  it('lists the users as cards on a phone', async () => {
    window.matchMedia = phoneMatchMedia;
    usersApi(meAs(AccountRole.SuperAdmin));
    renderUsers();
    const card = await screen.findByRole('article', { name: 'Stella Moss' });
    expect(card.textContent).toContain('stella@demo.test');
    expect(card.textContent).toContain('Support Staff');
    expect(card.textContent).toContain('Inactive');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("tells someone who is not the account's super admin who manages its users, and asks the API nothing", async () => {
    const sent = usersApi(meAs(AccountRole.SupportStaff));
    renderUsers();
    expect(await screen.findByText(ONLY_SUPER_ADMINS)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    expect(sent.some((r) => r.path.includes('/contacts'))).toBe(false);
  });

  it('shows the same notice when the API refuses the list (403)', async () => {
    usersApi(meAs(AccountRole.SuperAdmin), { 'GET /provider-clinic/1/contacts': apiRefusal(403, 'forbidden', 'Only super admins of this account') });
    renderUsers();
    expect(await screen.findByText(ONLY_SUPER_ADMINS)).toBeTruthy();
    expect(screen.queryByText('Request failed with status code 403')).toBeNull();
  });

  it('invites a user with a role in this account; the invitation waits in its own list and can be cancelled', async () => {
    const user = userEvent.setup();
    const invitation = {
      id: 5, email: 'nina@demo.test', firstName: 'Nina', lastName: 'Hale', title: 'Physician', role: AccountRole.Physician, invitedBy: 'Sam Admin',
      createdAt: '2026-11-20T10:00:00Z', expiresAt: '2026-12-04T10:00:00Z', expired: false,
    };
    let pending: (typeof invitation)[] = [];
    const sent = usersApi(meAs(AccountRole.SuperAdmin), {
      'POST /provider-clinic/1/contacts/create': () => {
        pending = [invitation];
        return { status: 201, body: { message: 'Invitation sent to nina@demo.test: they join this account when they accept it from the email', invitation } };
      },
      'GET /provider-clinic/1/invitations': () => ({ body: pending }),
      'POST /provider-clinic/1/invitations/5/cancel': () => {
        pending = [];
        return { body: [] };
      },
    });
    renderUsers();
    await usersTable();
    expect(screen.queryByRole('table', { name: 'Invitations awaiting acceptance' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a user' });
    await fill(user, within(dialog).getByLabelText(/^First name/), 'Nina');
    await fill(user, within(dialog).getByLabelText(/^Last name/), 'Hale');
    await fill(user, within(dialog).getByLabelText(/^Email/), 'nina@demo.test');
    await pick(user, within(dialog).getByRole('combobox', { name: /^Title/ }), 'Physician');

    // A physician needs an NPI before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(describedText(within(dialog).getByLabelText(/^NPI/))).toContain('NPI is required for a physician');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);

    await fill(user, within(dialog).getByLabelText(/^NPI/), '1234567893');
    // The title suggested the role.
    expect((within(dialog).getByRole('combobox', { name: /^Role in this account/ }) as HTMLInputElement).value).toBe('Physician');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation sent to nina@demo.test: they join this account when they accept it from the email')).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST' && r.path === '/provider-clinic/1/contacts/create')?.body).toEqual({
      firstName: 'Nina', lastName: 'Hale', email: 'nina@demo.test', phone: null, title: 'Physician', specialty: null, npi: '1234567893',
      accounts: [{ accountId: 1, role: AccountRole.Physician }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a user' })).toBeNull());
    const invitations = await screen.findByRole('table', { name: 'Invitations awaiting acceptance' });
    expect(within(invitations).getByText('nina@demo.test')).toBeTruthy();
    await user.click(within(invitations).getByRole('button', { name: 'Cancel the invitation of nina@demo.test' }));
    expect(await screen.findByText('The invitation of nina@demo.test was cancelled')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Invitations awaiting acceptance' })).toBeNull());
  });

  it("puts a 400's messages on their fields and shows a 409's message", async () => {
    const user = userEvent.setup();
    let answer: MockHandler = apiRefusal(400, 'validation', 'The user is not valid', [
      { field: 'email', message: 'Email must be a valid email' },
      { field: 'accounts.0.role', message: 'Role must be one of Physician, Support Staff, PROSTOX Super Admin' },
    ]);
    usersApi(meAs(AccountRole.SuperAdmin), { 'POST /provider-clinic/1/contacts/create': () => answer as never });
    renderUsers();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a user' });
    await fill(user, within(dialog).getByLabelText(/^First name/), 'Ned');
    await fill(user, within(dialog).getByLabelText(/^Last name/), 'Ward');
    await fill(user, within(dialog).getByLabelText(/^Email/), 'ned@demo.test');
    await pick(user, within(dialog).getByRole('combobox', { name: /^Title/ }), 'Nurse');
    await pick(user, within(dialog).getByRole('combobox', { name: /^Role in this account/ }), 'Support Staff');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    await waitFor(() => expect(describedText(within(dialog).getByLabelText(/^Email/))).toContain('Email must be a valid email'));
    expect(describedText(within(dialog).getByRole('combobox', { name: /^Role in this account/ }))).toContain('Role must be one of');
    expect(screen.queryByText('Request failed with status code 400')).toBeNull();

    answer = apiRefusal(409, 'conflict', 'ned@demo.test was already invited to this account: cancel that invitation below to invite them again');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('ned@demo.test was already invited to this account: cancel that invitation below to invite them again')).toBeTruthy();
    expect(screen.queryByText(/^Invitation sent/)).toBeNull();
  });

  it('removes a user from the account only after confirming', async () => {
    const user = userEvent.setup();
    const removed = { ...paula, memberships: [] };
    let current = paula;
    const sent = usersApi(meAs(AccountRole.SuperAdmin), {
      'GET /provider-clinic/1/contacts/10': () => ({ body: current }),
      'POST /provider-clinic/1/remove-account-access': () => {
        current = removed;
        return { body: removed };
      },
    });
    renderUsers();
    await user.click(within(await usersTable()).getByRole('button', { name: 'Grant, Paula' }));
    const drawer = await screen.findByRole('dialog', { name: 'Paula Grant' });
    await user.click(await within(drawer).findByRole('button', { name: 'Remove access' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Paula Grant from Riverside Oncology?' });
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove access' }));

    await waitFor(() => expect(sent.find((r) => r.path === '/provider-clinic/1/remove-account-access')?.body).toEqual({ contactId: 10, accountId: 1 }));
    expect(await screen.findByText('Paula Grant no longer has access to Riverside Oncology')).toBeTruthy();
    // What they are now: no access here, with the way back.
    expect(await within(drawer).findByRole('button', { name: 'Give access again' })).toBeTruthy();
  });

  it('gives a removed user access again with the role chosen', async () => {
    const user = userEvent.setup();
    const removed = { ...paula, memberships: [] };
    const back = { ...paula, memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role: AccountRole.SupportStaff, isActive: true }] };
    let current: ContactDetail = removed;
    const sent = usersApi(meAs(AccountRole.SuperAdmin), {
      'GET /provider-clinic/1/contacts': () => ({ body: [current, omar, stella], headers: { 'x-total-count': '3' } }),
      'GET /provider-clinic/1/contacts/10': () => ({ body: current }),
      'POST /provider-clinic/1/add-account-access': () => {
        current = back;
        return { body: back };
      },
    });
    renderUsers();
    const row = within(await usersTable()).getByRole('button', { name: 'Grant, Paula' }).closest('tr')!;
    expect(within(row).getByText('No access')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Grant, Paula' }));
    const drawer = await screen.findByRole('dialog', { name: 'Paula Grant' });
    await within(drawer).findByRole('heading', { name: 'No access to Riverside Oncology' });
    const give = within(drawer).getByRole('button', { name: 'Give access again' });
    expect(give.hasAttribute('disabled'), 'a role is chosen first').toBe(true);
    await pick(user, within(drawer).getByRole('combobox', { name: /^Role/ }), 'Support Staff');
    await user.click(give);

    await waitFor(() =>
      expect(sent.find((r) => r.path === '/provider-clinic/1/add-account-access')?.body).toEqual({ contactId: 10, role: AccountRole.SupportStaff, accountId: 1 }),
    );
    expect(await screen.findByText('Paula Grant has access to Riverside Oncology again')).toBeTruthy();
    expect(await within(drawer).findByRole('heading', { name: 'Role and access in Riverside Oncology' })).toBeTruthy();
    await waitFor(() => expect(within(row).getByText('Active')).toBeTruthy());
  });

  it('deactivates a user in the account after confirming, and activates them again', async () => {
    const user = userEvent.setup();
    const withAccess = (isActive: boolean) => ({ ...paula, memberships: [{ ...paula.memberships[0], isActive }] });
    let current: ContactDetail = paula;
    const sent = usersApi(meAs(AccountRole.SuperAdmin), {
      'GET /provider-clinic/1/contacts/10': () => ({ body: current }),
      'POST /provider-clinic/1/activate-deactivate': (body) => {
        current = withAccess((body as { active: boolean }).active);
        return { body: current };
      },
    });
    renderUsers();
    await user.click(within(await usersTable()).getByRole('button', { name: 'Grant, Paula' }));
    const drawer = await screen.findByRole('dialog', { name: 'Paula Grant' });
    await user.click(await within(drawer).findByRole('button', { name: 'Deactivate in this account' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Paula Grant in Riverside Oncology?' });
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Paula Grant is deactivated in Riverside Oncology')).toBeTruthy();

    await user.click(await within(drawer).findByRole('button', { name: 'Activate in this account' }));
    expect(await screen.findByText('Paula Grant is active again in Riverside Oncology')).toBeTruthy();
    expect(await within(drawer).findByRole('button', { name: 'Deactivate in this account' })).toBeTruthy();
    expect(sent.filter((r) => r.path === '/provider-clinic/1/activate-deactivate').map((r) => r.body)).toEqual([
      { contactId: 10, accountId: 1, active: false },
      { contactId: 10, accountId: 1, active: true },
    ]);
  });

  it("shows the API's refusal when a change is not allowed", async () => {
    const user = userEvent.setup();
    usersApi(meAs(AccountRole.SuperAdmin), {
      'POST /provider-clinic/1/activate-deactivate': apiRefusal(409, 'conflict', 'An account must keep at least one active super admin'),
    });
    renderUsers();
    await user.click(within(await usersTable()).getByRole('button', { name: 'Grant, Paula' }));
    const drawer = await screen.findByRole('dialog', { name: 'Paula Grant' });
    await user.click(await within(drawer).findByRole('button', { name: 'Deactivate in this account' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Paula Grant in Riverside Oncology?' });
    await user.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await within(drawer).findByText('An account must keep at least one active super admin')).toBeTruthy();
    expect(screen.queryByText('Request failed with status code 409')).toBeNull();
  });

  it('links a support staff member to the physicians they work for', async () => {
    const user = userEvent.setup();
    const sent = usersApi(meAs(AccountRole.SuperAdmin), {
      'POST /provider-clinic/1/provider-staff-relationships/upsert': { body: [] },
    });
    renderUsers();
    await user.click(within(await usersTable()).getByRole('button', { name: 'Moss, Stella' }));
    const drawer = await screen.findByRole('dialog', { name: 'Stella Moss' });
    const section = await within(drawer).findByRole('region', { name: 'Physicians they work for' });
    await waitFor(() => expect(section.textContent).toContain('Paula Grant'));
    await user.click(within(section).getByLabelText('Physicians'));
    await user.click(await screen.findByRole('option', { name: 'Omar Reyes', hidden: true }));
    await user.click(within(section).getByRole('button', { name: 'Save physicians' }));
    await waitFor(() =>
      expect(sent.find((r) => r.path === '/provider-clinic/1/provider-staff-relationships/upsert')?.body).toEqual({ accountId: 1, staffContactId: 12, physicianContactIds: [10, 11] }),
    );
    expect(await screen.findByText('Saved the physicians Stella Moss works for')).toBeTruthy();
    expect(sent.some((r) => r.path === '/provider-clinic/1/provider-staff-relationships/get-support-staff?accountId=1')).toBe(true);
  });

  it('dismissing a refusal gives the focus back to the button whose change was refused', async () => {
    const user = userEvent.setup();
    usersApi(meAs(AccountRole.SuperAdmin), {
      'POST /provider-clinic/1/activate-deactivate': apiRefusal(409, 'conflict', 'An account must keep at least one active super admin'),
      'POST /provider-clinic/1/provider-staff-relationships/upsert': apiRefusal(409, 'conflict', 'Omar Reyes is not a physician of Riverside Oncology'),
    });
    renderUsers();
    await user.click(within(await usersTable()).getByRole('button', { name: 'Grant, Paula' }));
    let drawer = await screen.findByRole('dialog', { name: 'Paula Grant' });
    const deactivate = await within(drawer).findByRole('button', { name: 'Deactivate in this account' });
    await user.click(deactivate);
    await user.click(within(await screen.findByRole('dialog', { name: 'Deactivate Paula Grant in Riverside Oncology?' })).getByRole('button', { name: 'Deactivate' }));
    await within(drawer).findByText('An account must keep at least one active super admin');
    within(drawer).getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(drawer).queryByText('The change was not made')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(deactivate));

    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await user.click(within(await usersTable()).getByRole('button', { name: 'Moss, Stella' }));
    drawer = await screen.findByRole('dialog', { name: 'Stella Moss' });
    const section = await within(drawer).findByRole('region', { name: 'Physicians they work for' });
    await waitFor(() => expect(section.textContent).toContain('Paula Grant'));
    await user.click(within(section).getByLabelText('Physicians'));
    await user.click(await screen.findByRole('option', { name: 'Omar Reyes', hidden: true }));
    const save = within(section).getByRole('button', { name: 'Save physicians' });
    await user.click(save);
    await within(section).findByText('Omar Reyes is not a physician of Riverside Oncology');
    await user.click(within(section).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(within(section).queryByText('The physicians were not saved')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(save));
  });
});

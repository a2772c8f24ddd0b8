import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOASTS } from '@platform/domain';
import { describedText, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { LabToolboxUsersPage } from './LabToolboxUsersPage';

const lee = { id: 3, firstName: 'Lee', lastName: 'Park', email: 'lee.park@lab.test', isActive: true, lastLoginAt: null, createdAt: '2026-01-05T00:00:00Z' };
const sam = { id: 4, firstName: 'Sam', lastName: 'Ito', email: 'sam.ito@lab.test', isActive: true, lastLoginAt: '2026-03-01T09:00:00Z', createdAt: '2026-01-06T00:00:00Z' };

function api(routes: Record<string, MockHandler>) {
  const sent = mockApi({ 'GET /admin/lab-toolbox/users': { body: [lee, sam], headers: { 'x-total-count': '2' } }, ...routes });
  renderPage(<><LabToolboxUsersPage /><ToastHost /></>, { path: '/admin/provider/lab-toolbox', route: '/admin/provider/lab-toolbox' });
  return sent;
}

async function addUser(user: ReturnType<typeof userEvent.setup>) {
  await fillIn(user, screen.getByLabelText(/^First name/), 'Kim');
  await fillIn(user, screen.getByLabelText(/^Last name/), 'Lutz');
  await fillIn(user, screen.getByLabelText(/^Email/), 'kim.lutz@lab.test');
  await user.click(screen.getByRole('button', { name: 'Add user' }));
}

describe('LabToolboxUsersPage', () => {
  it("toasts the server's message when a user is added", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = api({
      'POST /admin/lab-toolbox/users/create': {
        status: 201,
        body: { message: 'Kim Lutz was added and emailed a link to set a password', user: { ...lee, id: 5, firstName: 'Kim', lastName: 'Lutz', email: 'kim.lutz@lab.test' } },
      },
    });
    await screen.findByRole('table', { name: 'Lab toolbox users' });
    await addUser(user);
    await findToast('Kim Lutz was added and emailed a link to set a password');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ firstName: 'Kim', lastName: 'Lutz', email: 'kim.lutz@lab.test' });
  });

  it(`says '${ADMIN_TOASTS.labUserFailed}' with the server's message when adding fails`, async () => {
    const user = userEvent.setup({ delay: null });
    api({ 'POST /admin/lab-toolbox/users/create': apiRefusal(409, 'conflict', 'A user with the email kim.lutz@lab.test already exists') });
    await addUser(user);
    expect(await screen.findByText(ADMIN_TOASTS.labUserFailed)).toBeTruthy();
    expect(screen.getByText('A user with the email kim.lutz@lab.test already exists')).toBeTruthy();
  });

  it(`says '${ADMIN_TOASTS.labUserFailed}' also when the server names the field`, async () => {
    const user = userEvent.setup({ delay: null });
    api({ 'POST /admin/lab-toolbox/users/create': apiRefusal(400, 'validation_failed', 'Email must be a valid email', [{ field: 'email', message: 'Email must be a valid email' }]) });
    await addUser(user);
    expect(await screen.findByText(ADMIN_TOASTS.labUserFailed)).toBeTruthy();
    await waitFor(() => expect(describedText(screen.getByLabelText(/^Email/))).toContain('Email must be a valid email'));
  });

  it('deactivates after a confirmation; the row stays, shown inactive', async () => {
    const user = userEvent.setup({ delay: null });
    let deactivated = false;
    const sent = api({
      'GET /admin/lab-toolbox/users': () => ({ body: [deactivated ? { ...lee, isActive: false } : lee, sam] }),
      'POST /admin/lab-toolbox/users/delete': () => {
        deactivated = true;
        return { body: { ...lee, isActive: false } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Lee Park' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Lee Park?' });
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));

    await findToast('Lee Park was deactivated');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ userId: 3 });
    const row = screen.getByRole('cell', { name: 'Park, Lee' }).closest('tr')!;
    expect(within(row).getByText('Inactive')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Deactivate/ })).toBeNull();
  });

  it('reactivates an inactive user after a confirmation; the row shows them active again', async () => {
    const user = userEvent.setup({ delay: null });
    let reactivated = false;
    const sent = api({
      'GET /admin/lab-toolbox/users': () => ({ body: [lee, reactivated ? sam : { ...sam, isActive: false }] }),
      'POST /admin/lab-toolbox/users/reactivate': () => {
        reactivated = true;
        return { body: sam };
      },
    });
    const inactive = (await screen.findByRole('cell', { name: 'Ito, Sam' })).closest('tr')!;
    expect(within(inactive).getByText('Inactive')).toBeTruthy();
    expect(within(inactive).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    // An active user offers no reactivation.
    expect(screen.queryByRole('button', { name: 'Reactivate Lee Park' })).toBeNull();

    await user.click(within(inactive).getByRole('button', { name: 'Reactivate Sam Ito' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate Sam Ito?' });
    expect(dialog.textContent).toContain('sam.ito@lab.test will be able to sign in to the Lab Toolbox again');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }));

    await findToast('Sam Ito was reactivated');
    expect(sent.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([['/admin/lab-toolbox/users/reactivate', { userId: 4 }]]);
    const row = screen.getByRole('cell', { name: 'Ito, Sam' }).closest('tr')!;
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Deactivate Sam Ito' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("keeps the confirmation open with the server's reason when reactivating is refused", async () => {
    const user = userEvent.setup({ delay: null });
    api({
      'GET /admin/lab-toolbox/users': { body: [lee, { ...sam, isActive: false }] },
      'POST /admin/lab-toolbox/users/reactivate': apiRefusal(409, 'conflict', 'Sam Ito is already active'),
    });
    await user.click(await screen.findByRole('button', { name: 'Reactivate Sam Ito' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate Sam Ito?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await within(dialog).findByText('The user was not reactivated')).toBeTruthy();
    expect(within(dialog).getByText('Sam Ito is already active')).toBeTruthy();
  });

  describe('focus when the refusal or the dialog goes away', () => {

    it('dismissing the refusal gives the focus back to Add user', async () => {
      const user = userEvent.setup({ delay: null });
      api({ 'POST /admin/lab-toolbox/users/create': apiRefusal(409, 'conflict', 'A user with the email kim.lutz@lab.test already exists') });
      await addUser(user);
      await screen.findByText(ADMIN_TOASTS.labUserFailed);
      screen.getByRole('button', { name: 'Dismiss' }).focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(screen.queryByText(ADMIN_TOASTS.labUserFailed)).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add user' })));
    });

    it("cancelling gives the focus back to the row's Deactivate button; once deactivated, to the Reactivate button in its place", async () => {
      const user = userEvent.setup({ delay: null });
      let deactivated = false;
      api({
        'GET /admin/lab-toolbox/users': () => ({ body: [deactivated ? { ...lee, isActive: false } : lee, sam] }),
        'POST /admin/lab-toolbox/users/delete': () => {
          deactivated = true;
          return { body: { ...lee, isActive: false } };
        },
      });
      const deactivate = await screen.findByRole('button', { name: 'Deactivate Lee Park' });
      await user.click(deactivate);
      await user.click(within(await screen.findByRole('dialog', { name: 'Deactivate Lee Park?' })).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(document.activeElement).toBe(deactivate));

      await user.keyboard('{Enter}');
      await user.click(within(await screen.findByRole('dialog', { name: 'Deactivate Lee Park?' })).getByRole('button', { name: 'Deactivate' }));
      await findToast('Lee Park was deactivated');
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Deactivate Lee Park' })).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reactivate Lee Park' })));
    });
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { AcceptInvitationPage, INVALID_INVITATION } from './AcceptInvitationPage';

const TOKEN = 'cd'.repeat(32);
const PREVIEW = { accountName: 'Riverside Oncology', invitedBy: 'Sam Admin', email: 'nina@demo.test', role: 'Support Staff', expiresAt: '2026-12-04T10:00:00Z' };
const renderAccept = (token = TOKEN) =>
  renderPage(<AcceptInvitationPage portal="provider" />, { path: '/provider/accept-invitation', route: `/provider/accept-invitation?token=${token}` });

describe('AcceptInvitationPage', () => {
  it('says who invites whom to which account; accepting with a sign-in already says so and leads to sign-in', async () => {
    const sent = mockApi({
      'POST /auth/account-invitation': { body: PREVIEW },
      'POST /auth/account-invitation/accept': { body: { message: 'You now work in Riverside Oncology. Sign in to continue.', next: 'sign-in', path: '/provider/login' } },
    });
    renderAccept();
    expect(await screen.findByText(/Sam Admin invites you to work in/)).toBeTruthy();
    expect(screen.getByText(/The invitation is for nina@demo\.test/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText('You now work in Riverside Oncology. Sign in to continue.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/provider/login');
    expect(sent.find((r) => r.path === '/auth/account-invitation/accept')?.body).toEqual({ token: TOKEN });
  });

  it('a new person goes on to choose a password', async () => {
    mockApi({
      'POST /auth/account-invitation': { body: PREVIEW },
      'POST /auth/account-invitation/accept': { body: { message: 'You now work in Riverside Oncology. Choose your password to sign in.', next: 'set-password', path: `/provider/reset-password?token=${'ef'.repeat(32)}` } },
    });
    renderAccept();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
  });

  it("shows the server's words for an expired link, with nothing to accept", async () => {
    mockApi({ 'POST /auth/account-invitation': apiRefusal(410, 'gone', 'This invitation has expired. Ask the person who invited you for a new one.') });
    renderAccept();
    expect(await screen.findByText('This invitation has expired. Ask the person who invited you for a new one.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept the invitation' })).toBeNull();
  });

  it('a link of the wrong shape is refused without asking the server', async () => {
    const sent = mockApi({});
    renderAccept('not-a-token');
    expect(await screen.findByText(INVALID_INVITATION)).toBeTruthy();
    expect(sent).toHaveLength(0);
  });
});

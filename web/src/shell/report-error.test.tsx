import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, UserKind, type Me } from '@platform/domain';
import { ErrorModalHost } from '../components/ErrorModalHost';
import { PendingPage } from '../pages/clinic/PendingPage';
import { STORED_USER_KEY } from '../session/stored-user';
import { apiRefusal, mockApi } from '../test/mock-api';
import { renderPage } from '../test/render';

const account = (id: number, name: string) => ({
  id, name, type: AccountType.General, role: AccountRole.SupportStaff as AccountRole, eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
});
const aspen = account(1, 'Aspen Clinic');
const birch = account(2, 'Birch Clinic');
const user = { id: 70, kind: UserKind.Provider, email: 'ana@demo.test', firstName: 'Ana', lastName: 'Staff' };

/** /auth/me answers `first`, then `later` (the account as the server now sees it). */
function meAnswers(first: Me, later: Me) {
  let calls = 0;
  return () => {
    calls += 1;
    return { body: calls === 1 ? first : later };
  };
}

const renderPending = () => {
  window.localStorage.setItem(
    STORED_USER_KEY,
    JSON.stringify({ portal: 'provider', userId: 70, kind: 'provider', email: user.email, firstName: 'Ana', lastName: 'Staff', currentAccountId: 1, currentAccountName: 'Aspen Clinic', currentAccountRole: AccountRole.SupportStaff, eapPartner: false, international: false, clinicAccess: true, researchAccess: false }),
  );
  return renderPage(
    <>
      <PendingPage />
      <ErrorModalHost />
    </>,
    { path: '/provider-clinic/:accountId/pending', route: '/provider-clinic/1/pending' },
  );
};

describe('a query under an account that answers 404', () => {
  it('re-reads who the person is: when the account is no longer theirs, the page is not found (no error modal) and the stored account moves on', async () => {
    const sent = mockApi({
      'GET /auth/me': meAnswers({ user, accounts: [aspen, birch], currentAccount: aspen }, { user, accounts: [birch], currentAccount: birch }),
      'GET /provider-clinic/1/tests': apiRefusal(404, 'not_found', 'Account not found'),
      'GET /provider-clinic/1/physicians': { body: [] },
    });
    renderPending();
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(sent.filter((r) => r.path === '/auth/me')).toHaveLength(2);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(STORED_USER_KEY)!)).toMatchObject({ currentAccountId: 2, currentAccountName: 'Birch Clinic' });
  });

  it('still shows the error modal when the account is still theirs', async () => {
    const me: Me = { user, accounts: [aspen, birch], currentAccount: aspen };
    mockApi({
      'GET /auth/me': meAnswers(me, me),
      'GET /provider-clinic/1/tests': apiRefusal(404, 'not_found', 'Not found'),
      'GET /provider-clinic/1/physicians': { body: [] },
    });
    renderPending();
    const modal = await screen.findByRole('dialog', { name: 'Error retrieving pending tests' });
    expect(modal.textContent).toContain('Request failed with status code 404');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Pending tests' })).toBeTruthy());
  });
});

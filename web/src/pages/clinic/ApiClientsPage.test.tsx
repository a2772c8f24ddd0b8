import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, UserKind, type ApiClientView, type CreatedApiClient, type Me } from '@platform/domain';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ToastHost } from '../../test/toasts';
import { ApiClientsPage } from './ApiClientsPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.SuperAdmin as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const meAs = (role: AccountRole): Me => ({
  user: { id: 70, kind: UserKind.Provider, email: 'superadmin@demo.test', firstName: 'Sue', lastName: 'Perry' },
  accounts: [{ ...riverside, role }],
  currentAccount: { ...riverside, role },
});
const ehr: ApiClientView = {
  clientId: 'pc_0123456789abcdef01234567', name: 'Practice EHR', webhookUrl: 'https://ehr.example.org/hooks', createdAt: '2026-11-20T10:00:00Z',
  createdBy: 'Sue Perry', lastUsedAt: null, revokedAt: null,
};
const created: CreatedApiClient = {
  clientId: 'pc_fedcba9876543210fedcba98', clientSecret: 'sEcReT-shown-once-AAAAAAAAAAAAAAAAAAAAAAAAAAAA', webhookSecret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LW9mLTMyLWJ5dGVzISE=',
  client: { ...ehr, clientId: 'pc_fedcba9876543210fedcba98', name: 'Lab reader' },
};

const renderClients = () =>
  renderPage(
    <>
      <ApiClientsPage />
      <ErrorModalHost />
      <ToastHost />
    </>,
    { path: '/provider-clinic/:accountId/api-clients', route: '/provider-clinic/1/api-clients' },
  );

describe('ApiClientsPage', () => {
  it("lists the account's clients and shows a new client's secrets once", async () => {
    let list = [ehr];
    const sent = mockApi({
      'GET /auth/me': { body: meAs(AccountRole.SuperAdmin) },
      'GET /provider-clinic/1/api-clients': () => ({ body: list }),
      'POST /provider-clinic/1/api-clients': () => {
        list = [created.client, ehr];
        return { status: 201, body: created };
      },
    });
    renderClients();
    const table = await screen.findByRole('table', { name: 'API clients' });
    expect(within(table).getByText('Practice EHR')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'New API client' }));
    await userEvent.type(screen.getByLabelText('Name', { exact: false }), 'Lab reader');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Lab reader was created: copy its secrets now')).toBeTruthy();
    expect(screen.getByText(created.clientSecret)).toBeTruthy();
    expect(screen.getByText(created.webhookSecret!)).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Lab reader', webhookUrl: null });

    await userEvent.click(screen.getByRole('button', { name: 'I have copied them' }));
    await waitFor(() => expect(screen.queryByText(created.clientSecret)).toBeNull());
    expect(within(await screen.findByRole('table', { name: 'API clients' })).getByText('Lab reader')).toBeTruthy();
  });

  it("puts the server's refusal of a webhook URL on its field", async () => {
    mockApi({
      'GET /auth/me': { body: meAs(AccountRole.SuperAdmin) },
      'GET /provider-clinic/1/api-clients': { body: [] },
      'POST /provider-clinic/1/api-clients': apiRefusal(400, 'validation_failed', 'Webhook URL must be an https:// address', [
        { field: 'webhookUrl', message: 'Webhook URL must be an https:// address' },
      ]),
    });
    renderClients();
    expect(await screen.findByText('No API clients yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'New API client' }));
    await userEvent.type(screen.getByLabelText('Name', { exact: false }), 'EHR');
    await userEvent.type(screen.getByLabelText('Webhook URL', { exact: false }), 'http://ehr.example.org/hooks');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Webhook URL must be an https:// address')).toBeTruthy();
  });

  it('tells a physician that super admins manage the clients', async () => {
    mockApi({ 'GET /auth/me': { body: meAs(AccountRole.Physician) } });
    renderClients();
    expect(await screen.findByText("Only this account's super admins manage its API clients")).toBeTruthy();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountType, Hl7MessageStatus, type Hl7InterfaceView, type Hl7MessageView } from '@platform/domain';
import { pickOption } from '../../test/fields';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { Hl7InterfacesPage } from './Hl7InterfacesPage';

const account = (id: number, name: string) => ({
  id, name, type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
  isActive: true, departments: [], physicianCount: 1, userCount: 2, createdAt: '2026-01-01T00:00:00Z',
});
const unconfigured: Hl7InterfaceView = {
  accountId: 1, configured: false, enabled: false, host: '', port: null, receivingApplication: '', receivingFacility: '', sendingFacilityOfOrders: null, updatedAt: null,
};
const message = (over: Partial<Hl7MessageView>): Hl7MessageView => ({
  id: 7, controlId: 'M7', messageType: 'ORU^R01', reason: 'released', sample: 'PC00000007', test: 'PROSTOX Ultra', status: Hl7MessageStatus.Failed,
  createdAt: '2026-11-27T10:00:00Z', attempts: 12, lastAttemptAt: '2026-11-28T10:00:00Z', ackCode: 'AR', ackText: 'Unknown patient', acknowledgedAt: null, ...over,
});

const renderHl7 = () =>
  renderPage(
    <>
      <Hl7InterfacesPage />
      <ToastHost />
    </>,
    { path: '/admin/provider/hl7', route: '/admin/provider/hl7' },
  );

describe('Hl7InterfacesPage', () => {
  it("saves an account's connection, sends a test message and shows the receiver's ACK", async () => {
    const user = userEvent.setup({ delay: null });
    let saved = unconfigured;
    const sent = mockApi({
      'GET /admin/accounts': { body: [account(1, 'Riverside Oncology')], headers: { 'x-total-count': '1' } },
      'GET /admin/accounts/1/hl7-interface': () => ({ body: saved }),
      'PUT /admin/accounts/1/hl7-interface': (body) => {
        saved = { ...unconfigured, ...(body as object), configured: true, updatedAt: '2026-11-28T10:00:00Z' };
        return { body: saved };
      },
      'POST /admin/accounts/1/hl7-interface/test-message': { body: message({ id: 8, controlId: 'M8', reason: 'test', sample: null, test: null, status: Hl7MessageStatus.Acknowledged, ackCode: 'AA', ackText: null, attempts: 1 }) },
      'GET /admin/accounts/1/hl7-messages': { body: [] },
    });
    renderHl7();
    await pickOption(user, screen.getByRole('combobox', { name: 'Account' }), 'Riverside Oncology');
    const form = await screen.findByRole('form', { name: 'HL7 interface of Riverside Oncology' });
    expect(within(form).getByRole('button', { name: 'Send test message' })).toHaveProperty('disabled', true);

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Host is required')).toBeTruthy();
    await user.type(within(form).getByLabelText('Host', { exact: false }), 'ehr.example.org');
    await user.type(within(form).getByLabelText('Port', { exact: false }), '2575');
    await user.type(within(form).getByLabelText('Receiving application', { exact: false }), 'EPIC');
    await user.type(within(form).getByLabelText('Receiving facility', { exact: false }), 'NORTH CLINIC');
    await user.click(within(form).getByRole('checkbox', { name: /Enabled/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await findToast('The HL7 interface of Riverside Oncology was saved: its results are sent.');
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      enabled: true, host: 'ehr.example.org', port: 2575, receivingApplication: 'EPIC', receivingFacility: 'NORTH CLINIC', sendingFacilityOfOrders: null,
    });

    await user.click(within(form).getByRole('button', { name: 'Send test message' }));
    expect(await within(form).findByText('Acknowledged: AA')).toBeTruthy();
    expect(within(form).getByText('Test message M8')).toBeTruthy();
  });

  it('shows a refused message with its answer, and resends it as a new message', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/accounts': { body: [account(1, 'Riverside Oncology')], headers: { 'x-total-count': '1' } },
      'GET /admin/accounts/1/hl7-interface': { body: { ...unconfigured, configured: true, enabled: true, host: 'ehr.example.org', port: 2575, receivingApplication: 'EPIC', receivingFacility: 'NORTH' } },
      'GET /admin/accounts/1/hl7-messages': { body: [message({})] },
      'POST /admin/accounts/1/hl7-messages/7/resend': { status: 201, body: message({ id: 9, controlId: 'M9', status: Hl7MessageStatus.Pending, attempts: 0, lastAttemptAt: null, ackCode: null, ackText: null }) },
    });
    renderHl7();
    await pickOption(user, screen.getByRole('combobox', { name: 'Account' }), 'Riverside Oncology');
    const table = await screen.findByRole('table', { name: 'HL7 messages' });
    const row = within(table).getByRole('row', { name: /M7/ });
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('AR: Unknown patient')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Resend message M7' }));
    await findToast('The PROSTOX Ultra of PC00000007 is being sent again as message M9.');
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/admin/accounts/1/hl7-messages/7/resend']));
  });

  it('names the field the server refused', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      'GET /admin/accounts': { body: [account(1, 'Riverside Oncology')], headers: { 'x-total-count': '1' } },
      'GET /admin/accounts/1/hl7-interface': { body: { ...unconfigured, configured: true, host: 'ehr.example.org', port: 2575, receivingApplication: 'EPIC', receivingFacility: 'NORTH' } },
      'GET /admin/accounts/1/hl7-messages': { body: [] },
      'PUT /admin/accounts/1/hl7-interface': apiRefusal(409, 'conflict', 'Another account already receives orders from this sending facility', [
        { field: 'sendingFacilityOfOrders', message: 'Another account already receives orders from this sending facility' },
      ]),
    });
    renderHl7();
    await pickOption(user, screen.getByRole('combobox', { name: 'Account' }), 'Riverside Oncology');
    const form = await screen.findByRole('form', { name: 'HL7 interface of Riverside Oncology' });
    await user.type(within(form).getByLabelText('Sending facility of orders', { exact: false }), 'NORTH');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Another account already receives orders from this sending facility')).toBeTruthy();
  });
});

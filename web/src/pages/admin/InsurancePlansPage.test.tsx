import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fillIn } from '../../test/fields';
import { describe, expect, it } from 'vitest';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { InsurancePlansPage } from './InsurancePlansPage';

const aetna = { id: 1, name: 'Aetna Choice', payerCode: 'AET01', isActive: true };
const retired = { id: 2, name: 'Old Mutual', payerCode: null, isActive: false };

describe('InsurancePlansPage', () => {
  it('adds, edits, retires and reactivates plans (retired ones stay listed)', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/insurance-plans': { body: [aetna, retired] },
      'POST /admin/insurance-plans/create': { status: 201, body: { id: 3, name: 'Blue Shield', payerCode: null, isActive: true } },
      'POST /admin/insurance-plans/1/update': (body) => ({ body: { id: 1, ...(body as object) } }),
      'POST /admin/insurance-plans/2/update': (body) => ({ body: { id: 2, ...(body as object) } }),
    });
    renderPage(<InsurancePlansPage />, { path: '/admin/provider/insurance', route: '/admin/provider/insurance' });
    const table = await screen.findByRole('table', { name: 'Insurance plans' });
    expect(within(table).getByText('Retired')).toBeTruthy();

    await fillIn(user, screen.getByLabelText(/^Plan name/), 'Blue Shield');
    await user.click(screen.getByRole('button', { name: 'Add plan' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/admin/insurance-plans/create')?.body).toEqual({ name: 'Blue Shield', payerCode: null, isActive: true }));

    await user.click(within(table).getByRole('button', { name: 'Retire Aetna Choice' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/admin/insurance-plans/1/update')?.body).toEqual({ name: 'Aetna Choice', payerCode: 'AET01', isActive: false }));
    await user.click(within(table).getByRole('button', { name: 'Reactivate Old Mutual' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/admin/insurance-plans/2/update')?.body).toEqual({ name: 'Old Mutual', payerCode: null, isActive: true }));

    await user.click(within(table).getByRole('button', { name: 'Edit Aetna Choice' }));
    const payer = within(table).getByLabelText(/^Payer code/);
    await user.clear(payer);
    await user.type(payer, 'AET02{Enter}');
    await waitFor(() =>
      expect(sent.filter((r) => r.path === '/admin/insurance-plans/1/update').map((r) => r.body)).toContainEqual({ name: 'Aetna Choice', payerCode: 'AET02', isActive: true }),
    );
  });

  it('dismissing the refusal gives the focus back to the field the plan was sent from with Enter', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      'GET /admin/insurance-plans': { body: [aetna, retired] },
      'POST /admin/insurance-plans/create': apiRefusal(409, 'conflict', 'A plan named Aetna Choice already exists'),
    });
    renderPage(<InsurancePlansPage />, { path: '/admin/provider/insurance', route: '/admin/provider/insurance' });
    await screen.findByRole('table', { name: 'Insurance plans' });
    const name = screen.getByLabelText(/^Plan name/);
    await user.type(name, 'Aetna Choice{Enter}');
    await screen.findByText('A plan named Aetna Choice already exists');
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('The plan was not added')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(name));
  });
});

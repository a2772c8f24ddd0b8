import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { pickOption } from '../../test/fields';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { TurnaroundTargetsPage } from './TurnaroundTargetsPage';

const unset = (testName: string) => ({ testName, amount: null, unit: null, hours: null, updatedAt: null, updatedBy: null });
const list = [unset('PROSTOX ultra'), { testName: 'COVID-19 PCR', amount: 36, unit: 'hours', hours: 36, updatedAt: '2026-11-20T10:00:00.000Z', updatedBy: 'Ada Admin' }];
const page = () => renderPage(<><TurnaroundTargetsPage /><ToastHost /></>, { path: '/admin/provider/turnaround-targets', route: '/admin/provider/turnaround-targets' });

describe('TurnaroundTargetsPage', () => {
  it('lists each test with its target; sets one in days', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/turnaround/targets': { body: list },
      'PUT /admin/turnaround/targets': (body) => {
        const b = body as { testName: string; amount: number; unit: string };
        return { body: { ...b, hours: b.unit === 'days' ? b.amount * 24 : b.amount, updatedAt: '2026-11-21T10:00:00.000Z', updatedBy: 'Ada Admin' } };
      },
    });
    page();
    expect(await screen.findByRole('heading', { level: 1, name: 'Turnaround targets' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Turnaround target by test' });
    const ultra = within(table).getByRole('row', { name: /PROSTOX ultra/ });
    expect(within(ultra).getByText('Never set')).toBeTruthy();
    expect((within(ultra).getByRole('button', { name: 'Save PROSTOX ultra' }) as HTMLButtonElement).disabled).toBe(true);
    const pcr = within(table).getByRole('row', { name: /COVID-19 PCR/ });
    expect((within(pcr).getByRole('textbox', { name: 'Turnaround target of COVID-19 PCR' }) as HTMLInputElement).value).toBe('36');
    expect((within(pcr).getByRole('combobox', { name: 'Unit of the COVID-19 PCR target' }) as HTMLInputElement).value).toBe('Hours');
    expect(within(pcr).getByText(/by Ada Admin$/)).toBeTruthy();

    await user.type(within(ultra).getByRole('textbox', { name: 'Turnaround target of PROSTOX ultra' }), '21');
    await pickOption(user, within(ultra).getByRole('combobox', { name: 'Unit of the PROSTOX ultra target' }), 'Days');
    await user.click(within(ultra).getByRole('button', { name: 'Save PROSTOX ultra' }));
    await findToast('Turnaround target of PROSTOX ultra saved: 21 days');
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ testName: 'PROSTOX ultra', amount: 21, unit: 'days' }]);
  });

  it("shows the server's refusal on the field it names", async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      'GET /admin/turnaround/targets': { body: list },
      'PUT /admin/turnaround/targets': apiRefusal(400, 'validation_failed', 'Target must be at most 2160 hours', [{ field: 'amount', message: 'Target must be at most 2160 hours' }]),
    });
    page();
    const table = await screen.findByRole('table', { name: 'Turnaround target by test' });
    const pcr = within(table).getByRole('row', { name: /COVID-19 PCR/ });
    const amount = within(pcr).getByRole('textbox', { name: 'Turnaround target of COVID-19 PCR' });
    await user.clear(amount);
    await user.type(amount, '3000');
    await user.click(within(pcr).getByRole('button', { name: 'Save COVID-19 PCR' }));
    await waitFor(() => expect(within(pcr).getByText('Target must be at most 2160 hours')).toBeTruthy());
  });
});

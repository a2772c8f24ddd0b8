import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PatientReleasePolicy } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { pickOption } from '../../test/fields';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { PatientReleasePage } from './PatientReleasePage';

const onRelease = (testName: string) => ({ testName, policy: PatientReleasePolicy.OnRelease, holdDays: 3, custom: false, updatedAt: null, updatedBy: null });
const list = [onRelease('PROSTOX ultra'), { ...onRelease('PREVIOTOX'), policy: PatientReleasePolicy.ClinicFirst, holdDays: 5, custom: true, updatedAt: '2026-11-20T10:00:00.000Z', updatedBy: 'Ada Admin' }];
const page = () => renderPage(<><PatientReleasePage /><ToastHost /></>, { path: '/admin/provider/patient-release', route: '/admin/provider/patient-release' });

describe('PatientReleasePage', () => {
  it('lists each test with its policy and days; sets a test to the clinic first with its days', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/patient-release/policies': { body: list },
      'PUT /admin/patient-release/policies': (body) => ({ body: { ...(body as object), custom: true, updatedAt: '2026-11-21T10:00:00.000Z', updatedBy: 'Ada Admin' } }),
    });
    page();
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient release' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Patient release by test' });
    const ultra = within(table).getByRole('row', { name: /PROSTOX ultra/ });
    expect(within(ultra).getByText('Default')).toBeTruthy();
    expect((within(ultra).getByRole('combobox', { name: 'When the patient gets the PROSTOX ultra result' }) as HTMLInputElement).value).toBe('To the patient when released');
    // The days mean something only for "To the clinic first".
    expect((within(ultra).getByRole('textbox', { name: 'Days before the PROSTOX ultra result goes to the patient anyway' }) as HTMLInputElement).disabled).toBe(true);
    expect((within(ultra).getByRole('button', { name: 'Save PROSTOX ultra' }) as HTMLButtonElement).disabled).toBe(true);
    const previotox = within(table).getByRole('row', { name: /PREVIOTOX/ });
    expect(within(previotox).getByText(/by Ada Admin$/)).toBeTruthy();
    expect((within(previotox).getByRole('textbox', { name: 'Days before the PREVIOTOX result goes to the patient anyway' }) as HTMLInputElement).value).toBe('5');

    await pickOption(user, within(ultra).getByRole('combobox', { name: 'When the patient gets the PROSTOX ultra result' }), 'To the clinic first');
    const days = within(ultra).getByRole('textbox', { name: 'Days before the PROSTOX ultra result goes to the patient anyway' });
    expect((days as HTMLInputElement).disabled).toBe(false);
    await user.clear(days);
    await user.type(days, '7');
    await user.click(within(ultra).getByRole('button', { name: 'Save PROSTOX ultra' }));
    await findToast('Patient release of PROSTOX ultra saved');
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ testName: 'PROSTOX ultra', policy: 'To the clinic first', holdDays: 7 }]);
  });

  it('shows the server\'s refusal on the field it names', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      'GET /admin/patient-release/policies': { body: list },
      'PUT /admin/patient-release/policies': apiRefusal(400, 'validation_failed', 'Days must be between 1 and 30', [{ field: 'holdDays', message: 'Days must be between 1 and 30' }]),
    });
    page();
    const table = await screen.findByRole('table', { name: 'Patient release by test' });
    const previotox = within(table).getByRole('row', { name: /PREVIOTOX/ });
    const days = within(previotox).getByRole('textbox', { name: 'Days before the PREVIOTOX result goes to the patient anyway' });
    await user.clear(days);
    await user.type(days, '9');
    await user.click(within(previotox).getByRole('button', { name: 'Save PREVIOTOX' }));
    await waitFor(() => expect(within(previotox).getByText('Days must be between 1 and 30')).toBeTruthy());
  });
});

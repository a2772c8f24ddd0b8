import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SampleStatus } from '@platform/domain';
import type { PatientSample } from '../../api/clinic';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { fillIn } from '../../test/fields';
import { SampleTools } from './SampleTools';

const sample: PatientSample = {
  id: 5, barcode: '41000000000005', status: SampleStatus.InQueue, statusBeforeStorage: null, sampleType: 'Buccal Swab', rejectionReason: null, orderNumber: 'RF_000000005',
  origin: 'Provider Ordered', orderedAt: '2026-11-01T10:00:00.000Z', physician: null, tests: [{ id: 1, name: 'PROSTOX ultra', status: 'Ordered' }],
  timeline: [], documents: { requisitionForm: true, labReport: false }, requisitionAwaitsSignOff: false, shipment: null, diagnoses: [], cancellable: false, cancelledAt: null, cancellationReason: null,
};

const renderTools = () => renderPage(<SampleTools accountId={1} patientId={9} sample={sample} diagnosis={null} />);

describe('SampleTools', () => {
  it('a refused CFRT test says Error submitting form with the server’s reason', async () => {
    const sent = mockApi({ 'POST /provider-clinic/1/sample/5/add-cfrt-test': apiRefusal(409, 'conflict', 'Sample 41000000000005 already has a PROSTOX CFRT test') });
    const user = userEvent.setup();
    renderTools();
    await user.click(screen.getByRole('button', { name: 'Add PROSTOX CFRT test' }));
    expect(await screen.findByText('Error submitting form')).toBeTruthy();
    expect(screen.getByText('Sample 41000000000005 already has a PROSTOX CFRT test')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a refused cancer registration says Error submitting form and puts the field’s message on it', async () => {
    const sent = mockApi({
      'POST /provider-clinic/1/sample/patient-register-cancer': apiRefusal(400, 'validation_failed', 'Date of diagnosis must not be in the future', [
        { field: 'diagnosedOn', message: 'Date of diagnosis must not be in the future' },
      ]),
    });
    const user = userEvent.setup();
    renderTools();
    await user.click(screen.getByRole('button', { name: 'Register cancer diagnosis' }));
    await fillIn(user, await screen.findByRole('textbox', { name: 'Date of diagnosis' }), '2999-01-01');
    await user.click(screen.getByRole('button', { name: 'Save diagnosis' }));
    expect(await screen.findByText('Date of diagnosis must not be in the future')).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')!.body).toMatchObject({ sampleId: 5, site: 'Prostate', diagnosedOn: '2999-01-01' });
  });

  it('a cancer registration refused without a field names the failure: Error submitting form', async () => {
    mockApi({ 'POST /provider-clinic/1/sample/patient-register-cancer': apiRefusal(404, 'not_found', 'Sample not found') });
    const user = userEvent.setup();
    renderTools();
    await user.click(screen.getByRole('button', { name: 'Register cancer diagnosis' }));
    await fillIn(user, await screen.findByRole('textbox', { name: 'Date of diagnosis' }), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Save diagnosis' }));
    expect(await screen.findByText('Error submitting form')).toBeTruthy();
    expect(screen.getByText('Sample not found')).toBeTruthy();
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ClinicNeeds as Needs } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ClinicNeeds } from './ClinicNeeds';

const none: Needs = { resultsToReview: 0, ordersAwaitingSignOff: 0, kitsToShip: 0, labQuestions: 0, labQuestionSamples: [] };

describe('ClinicNeeds (the clinic home)', () => {
  it('shows each count with a link to where it is done, and the samples the lab asked about', async () => {
    mockApi({
      'GET /provider-clinic/7/needs': {
        body: { resultsToReview: 3, ordersAwaitingSignOff: 1, kitsToShip: 2, labQuestions: 6, labQuestionSamples: [{ sampleId: 5, barcode: '41000000000005', patientId: 9, askedAt: '2026-11-02T15:00:00.000Z' }] },
      },
    });
    renderPage(<ClinicNeeds accountId={7} />);
    const section = await screen.findByRole('region', { name: 'Needs your attention' });
    expect(within(section).getByText('3 results to review')).toBeTruthy();
    expect(within(section).getByText('1 patient order awaiting sign-off')).toBeTruthy();
    expect(within(section).getByText('2 kits to ship')).toBeTruthy();
    expect(within(section).getByText('6 questions from the lab')).toBeTruthy();
    const href = (name: string) => within(section).getByRole('link', { name }).getAttribute('href');
    expect(href('Completed tests')).toBe('/provider-clinic/7/completed');
    expect(href('Patient-ordered tests')).toBe('/provider-clinic/7/pending?view=patient-ordered');
    expect(href('Shipments')).toBe('/provider-clinic/7/shipments');
    expect(href('Sample 41000000000005')).toBe('/provider-clinic/7/patient/9');
    expect(within(section).getByText('and 5 more')).toBeTruthy();
  });

  it('says when nothing waits, and leaves out what is zero', async () => {
    mockApi({ 'GET /provider-clinic/7/needs': { body: none } });
    renderPage(<ClinicNeeds accountId={7} />);
    expect(await screen.findByText(/^Nothing waits for you/)).toBeTruthy();
    expect(screen.queryByText(/^\d+ kits? to ship/)).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, PROSTOX_RESEARCH_QUESTIONNAIRE, UserKind, type Me, type ParticipantDetail, type StudyResponseView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { describedText, pickOption } from '../../test/fields';
import { renderPage } from '../../test/render';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { ParticipantPage } from './ParticipantPage';

const northwind = {
  id: 3, name: 'Northwind Research', type: AccountType.ProstoxResearchPartner, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: false, researchAccess: true,
};
const me: Me = { user: { id: 9, kind: UserKind.Provider, email: 'researcher@demo.test', firstName: 'Rae', lastName: 'Search' }, accounts: [northwind], currentAccount: northwind };

const response: StudyResponseView = {
  id: 4, project: { id: 5, name: 'Toxicity Panels Study' }, questionnaire: { id: 1, version: 1, definition: PROSTOX_RESEARCH_QUESTIONNAIRE },
  participant: { id: 30, studyId: 'KRAS-WH-0042', name: 'Study ID KRAS-WH-0042', sex: 'F' },
  answers: { radiationTreatment: 'Protons', doseGy: 70.2, fractions: 39, treatmentStartDate: '2026-02-02', treatmentEndDate: '2026-03-27', acuteToxicity: 'No' },
  complete: false, missing: ['lateToxicity'], updatedAt: '2026-11-23T10:00:00Z', updatedBy: 'Rae Search',
};
const detail: ParticipantDetail = {
  participant: { id: 30, studyId: 'KRAS-WH-0042', name: 'Study ID KRAS-WH-0042', sex: 'F', createdAt: '2026-11-01T10:00:00Z' },
  samples: [{
    id: 7, barcode: '41123456789012', status: 'In Queue', statusBeforeStorage: null, sampleType: 'Saliva', rejectionReason: null, orderNumber: 'RF_000000042', origin: 'Provider Ordered',
    orderedAt: '2026-11-01T10:00:00Z', physician: null, tests: [{ id: 1, name: 'SARCOMA', status: 'Ordered' }],
    timeline: [{ id: 1, at: '2026-11-01T10:00:00Z', from: null, to: 'Order Placed', reason: null, actor: { kind: 'provider', name: 'Rae Search' } }],
    documents: { requisitionForm: true, labReport: false }, requisitionAwaitsSignOff: false, shipment: null, diagnoses: [], cancellable: false, cancelledAt: null, cancellationReason: null,
  }],
  studyResponses: [response],
};

const renderParticipant = (id = 30) =>
  renderPage(<><ParticipantPage /><ErrorModalHost /></>, { path: '/provider-research/:accountId/patient/:patientId', route: `/provider-research/3/patient/${id}` });

describe('ParticipantPage', () => {
  it('shows what is incomplete, saves the study response and says so; the badge follows the count', async () => {
    const user = userEvent.setup();
    let incomplete = 1;
    const sent = mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-research/3/patient/30': () => ({ body: incomplete ? detail : { ...detail, studyResponses: [{ ...response, complete: true, missing: [] }] } }),
      'GET /provider-research/3/study-responses?page=1&pageSize=1&incomplete=true': () => ({ body: [], headers: { 'x-total-count': String(incomplete), 'x-total-incomplete-count': String(incomplete) } }),
      'POST /provider-research/3/study-responses/4/update': () => {
        incomplete = 0;
        return { body: { ...response, answers: { ...response.answers, lateToxicity: 'Other' }, complete: true, missing: [] } };
      },
    });
    renderParticipant();
    expect(await screen.findByRole('heading', { name: 'Study ID KRAS-WH-0042' })).toBeTruthy();
    const incompleteBox = screen.getByRole('alert');
    expect(within(incompleteBox).getByText(/Late toxicity at follow-up/)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('incomplete-badge').textContent).toContain('1'));
    // The Tests link tells a screen reader what the number counts.
    expect(screen.getByRole('link', { name: /^Tests/ }).textContent).toBe('Tests1 incomplete study response');

    await pickOption(user, screen.getByRole('combobox', { name: /Late toxicity at follow-up/ }), 'Other');
    await user.click(screen.getByRole('button', { name: 'Save study response' }));
    expect(await screen.findByText('Study Response Updated Successfully')).toBeTruthy();
    const post = sent.find((r) => r.method === 'POST');
    expect(post?.body).toEqual({ answers: { ...response.answers, lateToxicity: 'Other', toxicityNotes: null } });
    await waitFor(() => expect(screen.queryByTestId('incomplete-badge')).toBeNull());
    expect(await screen.findByText('Nothing is incomplete.')).toBeTruthy();
  });

  it("puts the server's message on the question it names, and opens 'Failed to update study response' for other failures", async () => {
    const user = userEvent.setup();
    let answer = apiRefusal(400, 'validation_failed', 'bad', [{ field: 'answers.doseGy', message: 'Total dose (Gy) must be between 0.1 and 200' }]);
    mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-research/3/patient/30': { body: detail },
      'POST /provider-research/3/study-responses/4/update': () => answer,
    });
    renderParticipant();
    await screen.findByRole('heading', { name: 'Study ID KRAS-WH-0042' });
    await user.click(screen.getByRole('button', { name: 'Save study response' }));
    const dose = screen.getByRole('textbox', { name: /Total dose/ });
    await waitFor(() => expect(describedText(dose)).toContain('Total dose (Gy) must be between 0.1 and 200'));
    expect(screen.queryByText('Request failed with status code 400')).toBeNull();

    answer = apiRefusal(500, 'internal', 'boom');
    await user.click(screen.getByRole('button', { name: 'Save study response' }));
    expect(await screen.findByText('Failed to update study response')).toBeTruthy();
    expect(screen.getByText('Request failed with status code 500')).toBeTruthy();
  });

  it('shows its own not-found for another account’s participant', async () => {
    mockApi({ 'GET /auth/me': { body: me }, 'GET /provider-research/3/patient/31': apiRefusal(404, 'not_found', 'Participant not found') });
    renderParticipant(31);
    expect(await screen.findByText('Participant not found')).toBeTruthy();
  });
});

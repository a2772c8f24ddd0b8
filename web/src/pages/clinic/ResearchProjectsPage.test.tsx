import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, PROSTOX_RESEARCH_QUESTIONNAIRE, UserKind, type Me, type StudyResponseView } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ResearchProjectsPage } from './ResearchProjectsPage';

const clinic = {
  id: 1, name: 'Riverside Oncology', type: AccountType.ProstoxResearchPartner, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = { user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' }, accounts: [clinic], currentAccount: clinic };
const response: StudyResponseView = {
  id: 8, project: { id: 2, name: 'PROSTOX Research' }, questionnaire: { id: 1, version: 1, definition: PROSTOX_RESEARCH_QUESTIONNAIRE },
  participant: { id: 5, studyId: null, name: 'Imogen Brightwater', sex: 'F' }, answers: {}, complete: false,
  missing: ['radiationTreatment', 'doseGy', 'fractions', 'treatmentStartDate', 'treatmentEndDate', 'acuteToxicity', 'lateToxicity'],
  updatedAt: '2026-11-20T10:00:00Z', updatedBy: null,
};

const renderProjects = () => renderPage(<ResearchProjectsPage />, { path: '/provider-clinic/:accountId/research-projects', route: '/provider-clinic/1/research-projects' });

describe('ResearchProjectsPage (clinic)', () => {
  it("lists the clinic's projects and its patients' study responses, and opens the same form", async () => {
    const user = userEvent.setup();
    mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-clinic/1/research-projects': {
        body: [{ id: 2, name: 'PROSTOX Research', protocol: '/docs/research-protocol.pdf', consentDocument: null, tests: ['PROSTOX Research'], questionnaire: { id: 1, version: 1, title: 'PROSTOX Research clinical data' }, closedAt: null, participants: 3, incomplete: 1 }],
      },
      'GET /provider-clinic/1/study-responses?page=1&pageSize=10&incomplete=true': { body: [response], headers: { 'x-total-count': '1', 'x-total-incomplete-count': '1' } },
    });
    renderProjects();
    expect(await screen.findByText('1 of 3 incomplete')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Protocol' }).getAttribute('href')).toBe('/docs/research-protocol.pdf');
    expect(await screen.findByText('1 patient has an incomplete study response')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Imogen Brightwater' }).getAttribute('href')).toBe('/provider-clinic/1/patient/5');
    await user.click(screen.getByRole('button', { name: 'Fill in' }));
    expect(screen.getByRole('combobox', { name: /Radiation treatment type/ })).toBeTruthy();
    expect(screen.getByText('Incomplete: 7 required answers missing')).toBeTruthy();
  });

  it('says so when the account takes part in no research project', async () => {
    const general = { ...clinic, type: AccountType.General };
    // A General clinic with no project: an empty list (no 404 on its home page), and the page says so.
    mockApi({ 'GET /auth/me': { body: { ...me, accounts: [general], currentAccount: general } }, 'GET /provider-clinic/1/research-projects': { body: [] } });
    renderProjects();
    expect(await screen.findByText('This account takes part in no research project.')).toBeTruthy();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, UserKind, type Me } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { describedText } from '../../test/fields';
import { renderPage } from '../../test/render';
import { ResearchOrderPage } from './ResearchOrderPage';

const northwind = {
  id: 3, name: 'Northwind Research', type: AccountType.ProstoxResearchPartner, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: false, researchAccess: true,
};
const me: Me = { user: { id: 9, kind: UserKind.Provider, email: 'researcher@demo.test', firstName: 'Rae', lastName: 'Search' }, accounts: [northwind], currentAccount: northwind };

function researchApi(extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /auth/me': { body: me },
    'GET /provider-research/3/research-projects': {
      body: [{ id: 5, name: 'Toxicity Panels Study', protocol: null, consentDocument: null, tests: ['HEAD AND NECK', 'SARCOMA'], questionnaire: { id: 1, version: 1, title: 'PROSTOX Research clinical data' }, closedAt: null, participants: 0, incomplete: 0 }],
    },
    'GET /provider-research/3/tests/catalogue': {
      body: ['PREVIOTOX', 'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX'].map((name) => ({ name, parentType: name, research: name !== 'PREVIOTOX' })),
    },
    'GET /provider-research/3/get-physicians-by-contact': { body: [{ id: 12, firstName: 'Rae', lastName: 'Search', name: 'Rae Search', npi: null, specialty: null, isCaller: true }] },
    'GET /provider-research/3/study-responses?page=1&pageSize=1&incomplete=true': { body: [], headers: { 'x-total-count': '0', 'x-total-incomplete-count': '0' } },
    ...extra,
  });
}

const renderOrder = () => renderPage(<ResearchOrderPage />, { path: '/provider-research/:accountId/order', route: '/provider-research/3/order' });

describe('ResearchOrderPage', () => {
  it('offers only the project’s Research Portal tests and the two research attestations, and sends the study id', async () => {
    const user = userEvent.setup();
    const sent = researchApi({
      'POST /provider-research/3/order': {
        status: 201,
        body: {
          order: { id: 1, orderNumber: 'RF_000000042', createdAt: '2026-11-23T10:00:00Z', origin: 'Provider Ordered', portal: 'Research Portal' },
          sample: { id: 7, barcode: '41123456789012', status: 'Order Placed', sampleType: 'Saliva' },
          tests: [{ id: 1, name: 'SARCOMA' }], participant: { id: 30, studyId: 'KRAS-WH-0042', created: true }, studyResponseId: 4, physicianId: 12,
          requisitionForm: { url: '/api/sample/41123456789012/pdf_order', jobId: 1 },
        },
      },
    });
    renderOrder();
    await screen.findByRole('checkbox', { name: 'SARCOMA' });
    expect(screen.queryByRole('checkbox', { name: 'BREAST TOX' })).toBeNull();
    expect(screen.getAllByRole('checkbox').map((c) => c.getAttribute('aria-label') ?? (c as HTMLInputElement).labels?.[0]?.textContent)).toHaveLength(4);
    expect(screen.queryByText(/medically necessary/)).toBeNull();
    expect(screen.getByText(/Informed consent has been obtained/)).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: /Study ID/ }), 'KRAS-WH-0042');
    await user.click(screen.getByRole('checkbox', { name: 'SARCOMA' }));
    await user.click(screen.getByRole('checkbox', { name: /Informed consent/ }));
    await user.click(screen.getByRole('checkbox', { name: /supporting this order/ }));
    await user.click(screen.getByRole('button', { name: 'Place order' }));

    expect(await screen.findByTestId('kit-barcode')).toHaveProperty('textContent', '41123456789012');
    expect(screen.getByText(/Study ID KRAS-WH-0042 \(new\)/)).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      projectId: 5, studyId: 'KRAS-WH-0042', sex: null, tests: ['SARCOMA'], physicianId: 12, sampleType: 'Saliva',
      attestations: { informedConsent: true, supportingDocumentation: true },
    });
  });

  it('checks the study id before sending, and shows the server’s field messages', async () => {
    const user = userEvent.setup();
    const sent = researchApi({
      'POST /provider-research/3/order': apiRefusal(400, 'validation_failed', 'bad', [{ field: 'tests', message: 'SARCOMA is not a test of Toxicity Panels Study' }]),
    });
    renderOrder();
    const studyId = await screen.findByRole('textbox', { name: /Study ID/ });
    await user.type(studyId, 'KRAS-WH-');
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(studyId)).toMatch(/KRAS study prefix/));
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await user.clear(studyId);
    await user.type(studyId, 'NW-0100');
    await user.click(screen.getByRole('checkbox', { name: 'SARCOMA' }));
    await user.click(screen.getByRole('checkbox', { name: /Informed consent/ }));
    await user.click(screen.getByRole('checkbox', { name: /supporting this order/ }));
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(screen.getByRole('group', { name: /^Tests/ }))).toContain('SARCOMA is not a test of Toxicity Panels Study'));
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PatientResultGreeting } from '@platform/domain';
import { choosePatientLanguage } from '../../i18n/patient-language';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { PatientResultPage } from './PatientResultPage';

const TOKEN = 'ab'.repeat(32);
const BARCODE = '41000000000015';
const greeting: PatientResultGreeting = { firstName: 'Rosa', lastInitial: 'M', locked: false, verified: false };
const verified: PatientResultGreeting = {
  ...greeting,
  verified: true,
  result: {
    patientName: 'Rosa Morales',
    barcode: BARCODE,
    sampleType: 'Saliva',
    collectedAt: '2026-10-01T00:00:00.000Z',
    receivedAt: '2026-10-03T00:00:00.000Z',
    results: [{
      testName: 'PROSTOX ultra', value: 'High Risk', valueText: 'High Risk',
      releasedAt: '2026-10-20T00:00:00.000Z', corrected: false, correctionReason: null, previousValue: null,
    }],
    reportAvailable: true,
    inReview: [],
    contact: { email: 'rosa@patients.test', phone: null, addressLine1: '1 Main St', addressLine2: null, city: 'Fresno', state: 'CA', postalCode: '93650' },
    texts: { mobilePhone: null, smsConsent: false, consentAt: null, consentSource: null },
    contacts: {
      lab: { name: 'Harbor Genomics Laboratory', phone: '+1 (415) 555-0142', email: 'results@harbor-genomics.example' },
      clinic: { name: 'Valley Oncology', physician: 'Ana Ruiz', phone: '(559) 555-0110', email: 'aruiz@valley-onc.example' },
    },
  },
};

const renderResult = () =>
  renderPage(<PatientResultPage />, { path: '/reports/patient_result/:barcode', route: `/reports/patient_result/${BARCODE}?token=${TOKEN}` });

describe('PatientResultPage in English and Spanish', () => {
  // The language is kept for the whole app: each test starts in English.
  afterEach(() => choosePatientLanguage('en'));

  it('the switch turns the date-of-birth check into Spanish, and back', async () => {
    const sent = mockApi({ [`GET /reports/patient-result/${BARCODE}?token=${TOKEN}`]: { body: greeting } });
    const user = userEvent.setup();
    renderResult();
    expect(await screen.findByRole('heading', { name: 'Hello Rosa M.' })).toBeTruthy();
    const switcher = screen.getByRole('group', { name: 'Language / Idioma' });
    expect(within(switcher).getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(switcher).getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Hola, Rosa M.' })).toBeTruthy();
    expect(screen.getByText('El resultado de su prueba está listo. Para mantenerlo privado, confirme su fecha de nacimiento.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Mes' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Año' })).toBeTruthy();
    expect(within(switcher).getByRole('button', { name: 'Español' }).getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.lang).toBe('es');
    // The patient's own words are checked in Spanish too.
    await user.click(screen.getByRole('button', { name: 'Ver mi resultado' }));
    expect(await screen.findByText('Escriba el mes, el día y el año en que nació.')).toBeTruthy();
    // Not verified yet: the choice is not sent to the server.
    expect(sent.some((r) => r.path.endsWith('/set-language'))).toBe(false);

    await user.click(within(switcher).getByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Hello Rosa M.' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show my result' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });

  it('a verified patient reads the result in their own words, what to do next, and whom to call', async () => {
    mockApi({
      [`GET /reports/patient-result/${BARCODE}?token=${TOKEN}`]: { body: verified },
      'POST /reports/patient-result/log-view-result': { status: 204 },
    });
    renderResult();
    expect(await screen.findByRole('heading', { name: 'Your result' })).toBeTruthy();
    expect(screen.getByTestId('result-value').textContent).toBe('High Risk');
    expect(screen.getByTestId('result-meaning').textContent).toMatch(/^Your genes give you a high risk of side effects from this treatment\. It does not mean you will have them/);
    expect(screen.getByTestId('result-next-step').textContent).toMatch(/^What to do next: Ask your doctor to go over this result with you before your treatment is decided/);
    // Written for the patient, never about them.
    expect(document.body.textContent).not.toMatch(/the patient|treating physician/i);

    const contacts = screen.getByRole('region', { name: 'Any questions?' });
    const clinic = within(contacts).getByTestId('contact-clinic');
    expect(clinic.textContent).toContain('Your clinic: Valley Oncology');
    expect(clinic.textContent).toContain('Your doctor: Ana Ruiz');
    expect(within(clinic).getByRole('link', { name: '(559) 555-0110' }).getAttribute('href')).toBe('tel:5595550110');
    expect(within(clinic).getByRole('link', { name: 'aruiz@valley-onc.example' }).getAttribute('href')).toBe('mailto:aruiz@valley-onc.example');
    const lab = within(contacts).getByTestId('contact-lab');
    expect(lab.textContent).toContain('The laboratory: Harbor Genomics Laboratory');
    expect(within(lab).getByRole('link', { name: '+1 (415) 555-0142' }).getAttribute('href')).toBe('tel:+14155550142');
  });

  it('a verified patient reads the result in Spanish (a Spanish headline beside the lab\'s value, its meaning and next step in Spanish) and the choice is stored', async () => {
    const sent = mockApi({
      [`GET /reports/patient-result/${BARCODE}?token=${TOKEN}`]: { body: verified },
      'POST /reports/patient-result/log-view-result': { status: 204 },
      'POST /reports/patient-result/set-language': { body: { language: 'es' } },
    });
    const user = userEvent.setup();
    renderResult();
    expect(await screen.findByRole('heading', { name: 'Your result' })).toBeTruthy();
    expect(screen.queryByTestId('result-spec-value')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Su resultado' })).toBeTruthy();
    expect(screen.getByTestId('result-value').textContent).toBe('Riesgo alto');
    expect(screen.getByTestId('result-spec-value').textContent).toBe('Resultado como lo da el informe: High Risk');
    expect(screen.getByTestId('result-meaning').textContent).toMatch(/^Sus genes le dan un riesgo alto de efectos secundarios/);
    expect(screen.getByTestId('result-next-step').textContent).toMatch(/^Qué hacer ahora: Pida a su médico/);
    expect(screen.getByRole('region', { name: '¿Tiene preguntas?' }).textContent).toContain('Su clínica: Valley Oncology');
    expect(screen.queryByText(/Your genes/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Descargar informe (PDF)' })).toBeTruthy();
    expect(screen.getByText('El informe del laboratorio está en inglés: es un documento clínico para su médico.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Código postal (ZIP)' })).toBeTruthy();
    expect(screen.getByText('Fecha del resultado: 10/20/2026')).toBeTruthy();
    expect(sent.filter((r) => r.path === '/reports/patient-result/set-language').map((r) => r.body)).toEqual([{ barcode: BARCODE, token: TOKEN, language: 'es' }]);
  });

  it('a result the clinic reviews first: says when it will be available, in English and Spanish, and offers no report', async () => {
    const held: PatientResultGreeting = {
      ...verified,
      result: { ...verified.result!, results: [], reportAvailable: false, inReview: [{ testName: 'PREVIOTOX', availableBy: '2026-10-23T16:30:00.000Z' }] },
    };
    mockApi({
      [`GET /reports/patient-result/${BARCODE}?token=${TOKEN}`]: { body: held },
      'POST /reports/patient-result/log-view-result': { status: 204 },
      'POST /reports/patient-result/set-language': { body: { language: 'es' } },
    });
    const user = userEvent.setup();
    renderResult();
    expect(await screen.findByRole('heading', { name: 'Your result' })).toBeTruthy();
    expect(screen.getByTestId('result-in-review').textContent).toBe(
      'Being reviewed by your clinicianYour PREVIOTOX result is being reviewed by your clinician. It will be available by 10/23/2026.',
    );
    expect(screen.queryByTestId('result-value')).toBeNull();
    expect(screen.queryByText(/not available right now/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download report (PDF)' })).toBeNull();
    expect(screen.queryByText(/being prepared/)).toBeNull();

    await user.click(within(screen.getByRole('group', { name: 'Language / Idioma' })).getByRole('button', { name: 'Español' }));
    expect(await screen.findByText('Su médico está revisando su resultado de PREVIOTOX. Estará disponible a más tardar el 10/23/2026.')).toBeTruthy();
  });
});

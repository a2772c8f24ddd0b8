/**
 * The patient's result page in a real browser on a phone: the emailed link (read from the
 * catcher), a wrong then the right date of birth, the result, the report download, the contact
 * details, the view log, and a locked link; a patient whose language is Spanish, in a Spanish
 * browser: the email, the date-of-birth check, the result and the page's title in Spanish, then
 * switched to English.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { expectAccessible, browserSuite, collectPageErrors, screenshot, USER_AGENTS, VIEWPORTS } from '../support/browser';
import { testConfig } from '../support/server';
import { until } from '../support/wait';
import { createClinic, deliveredResult, pdfText, releaseCorrection, runJob, type Clinic } from '../support/fixtures/reports';
import { waitForMail } from '../support/mail';

describe('patient result page (browser, phone)', function () {
  this.timeout(90_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'patient-result' });
  let ctx: AppContext;
  let page: Page;
  let errors: string[];
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    clinic = await createClinic(ctx.db, 'page');
    await ctx.db.models.Contact.update({ phone: '(559) 555-0110' }, { where: { id: clinic.physician.contactId! } });
  });
  after(async () => {
    if (ctx) await closeContext(ctx);
  });
  beforeEach(async () => {
    ({ page } = await suite.newPage({ userAgent: USER_AGENTS.iphoneSafari, viewport: VIEWPORTS.phone, isMobile: true, bypassCSP: true }));
    errors = collectPageErrors(page);
  });

  /** The emailed link, opened on this server. */
  const open = (link: { url: string }) => page.goto(new URL(link.url).pathname + new URL(link.url).search);

  /** The tab's title (a screen reader says it when the page changes) becomes this. */
  async function documentTitleIs(title: string) {
    await page.waitForFunction((expected) => (globalThis as unknown as { document: { title: string } }).document.title === expected, title, { timeout: 10_000 })
      .catch(async () => expect(await page.title(), 'the document title').to.equal(title));
  }

  async function enterDob(month: string, day: string, year: string) {
    await page.getByRole('textbox', { name: 'Month' }).fill(month);
    await page.getByRole('textbox', { name: 'Day' }).fill(day);
    await page.getByRole('textbox', { name: 'Year' }).fill(year);
    await page.getByRole('button', { name: 'Show my result' }).click();
  }

  it('greets by first name and initial, refuses a wrong date of birth, then shows the result, the report and the contact form', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'High Risk' });
    await open(link!);
    await page.getByRole('heading', { name: `Hello ${fixture.patient.firstName} Q.` }).waitFor();
    expect(await page.content()).to.not.include(fixture.patient.lastName);
    expect(await page.getByText('High Risk').count()).to.equal(0);
    await screenshot(page, 'patient-result-phone-greeting');
    await expectAccessible(page, 'the patient result page asking the date of birth');

    await enterDob('09', '18', '1957');
    await page.getByRole('alert').filter({ hasText: 'The date of birth does not match our records' }).waitFor();
    expect(await page.getByRole('alert').textContent()).to.include('9 attempts left');
    await expectAccessible(page, 'the patient result page after a wrong date of birth');

    await enterDob('08', '19', '1957');
    await page.getByRole('heading', { name: 'Your result' }).waitFor();
    expect(await page.getByTestId('result-value').textContent()).to.equal('High Risk');
    // Written to the patient, with what to do next and whom to call: the clinic, its doctor, the lab.
    expect(await page.getByTestId('result-meaning').textContent()).to.match(/^Your genes give you a high risk of side effects/);
    expect(await page.getByTestId('result-next-step').textContent()).to.match(/^What to do next: Ask your doctor/);
    expect(await page.locator('body').textContent()).to.not.match(/the patient has|treating physician/i);
    const contacts = page.getByRole('region', { name: 'Any questions?' });
    expect(await contacts.getByTestId('contact-clinic').textContent()).to.include(`Your clinic: ${clinic.account.name}`)
      .and.include(`Your doctor: ${clinic.physician.firstName} ${clinic.physician.lastName}`);
    expect(await contacts.getByRole('link', { name: '(559) 555-0110' }).getAttribute('href')).to.equal('tel:5595550110');
    expect(await contacts.getByTestId('contact-lab').textContent()).to.include(`The laboratory: ${ctx.config.lab.name}`).and.include(ctx.config.lab.phone);
    await page.getByText('Result date: 10/20/2026').waitFor();
    await screenshot(page, 'patient-result-phone-verified');
    await expectAccessible(page, 'the patient result page, verified');

    // every view is logged
    const viewed = () => ctx.db.models.AuditEvent.count({ where: { action: 'result.viewed', entityKind: 'sample', entityId: String(fixture.sampleId) } });
    await until(async () => (await viewed()) === 1, { what: 'the first view logged', timeoutMs: 10_000 });
    await page.reload();
    await page.getByRole('heading', { name: 'Your result' }).waitFor(); // a reload in the same browser needs no new answer
    await until(async () => (await viewed()) === 2, { what: 'the second view logged', timeoutMs: 10_000 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download report (PDF)' }).click()]);
    expect(download.suggestedFilename()).to.equal(`lab-report-${fixture.barcode}.pdf`);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())) chunks.push(chunk as Buffer);
    expect(await pdfText(Buffer.concat(chunks))).to.include('Result: High Risk');

    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('(555) 010-0142');
    await page.getByRole('textbox', { name: 'City' }).fill('Springfield');
    await page.getByRole('button', { name: 'Save my contact details' }).click();
    await page.getByText('Your contact details were saved.').waitFor();
    const patient = await ctx.db.models.Patient.findByPk(fixture.patientId);
    expect(patient!.phone).to.equal('(555) 010-0142');
    expect(patient!.city).to.equal('Springfield');
    expect(errors).to.deep.equal([]);
  });

  it('in Spanish: the email, the date-of-birth check, the result and the title in a Spanish browser; the switch goes back to English', async () => {
    const { fixture, link } = await deliveredResult(ctx, {
      accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'High Risk', preferredLanguage: 'es',
    });
    const [mail] = await waitForMail(fixture.patient.email!);
    expect(mail.subject).to.match(/^Su resultado de la prueba de .+ está listo$/);
    expect(mail.text).to.include(`Hola, ${fixture.patient.firstName}:`);
    expect(mail.text).to.include('primero le pediremos su fecha de nacimiento');
    // Whom to ask, in Spanish too: the clinic and its doctor, the laboratory.
    expect(mail.text).to.include('¿Tiene preguntas?');
    expect(mail.text).to.include(`Su clínica: ${clinic.account.name}`);
    expect(mail.text).to.include('Teléfono: (559) 555-0110');
    expect(mail.text).to.include(`El laboratorio: ${ctx.config.lab.name}`);
    expect(mail.text).to.include(`Teléfono: ${ctx.config.lab.phone}`);

    ({ page } = await suite.newPage({ userAgent: USER_AGENTS.iphoneSafari, viewport: VIEWPORTS.phone, isMobile: true, bypassCSP: true, locale: 'es-US' }));
    errors = collectPageErrors(page);
    await open(link!);
    await page.getByRole('heading', { name: `Hola, ${fixture.patient.firstName} Q.` }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('es');
    await documentTitleIs('Su resultado de la prueba · Prostox Platform');
    await page.getByRole('textbox', { name: 'Mes' }).fill('08');
    await page.getByRole('textbox', { name: 'Día' }).fill('19');
    await page.getByRole('textbox', { name: 'Año' }).fill('1957');
    await page.getByRole('button', { name: 'Ver mi resultado' }).click();
    await page.getByRole('heading', { name: 'Su resultado' }).waitFor();
    // The headline in Spanish, the lab's English value beside it.
    expect(await page.getByTestId('result-value').textContent()).to.equal('Riesgo alto');
    expect(await page.getByTestId('result-spec-value').textContent()).to.equal('Resultado como lo da el informe: High Risk');
    expect(await page.getByTestId('result-meaning').textContent()).to.match(/^Sus genes le dan un riesgo alto/);
    expect(await page.getByTestId('result-next-step').textContent()).to.match(/^Qué hacer ahora: /);
    await page.getByText('Fecha del resultado: 10/20/2026').waitFor();
    await page.getByRole('button', { name: 'Descargar informe (PDF)' }).waitFor();
    await screenshot(page, 'patient-result-phone-spanish');
    await expectAccessible(page, 'the patient result page in Spanish');

    await page.getByRole('group', { name: 'Language / Idioma' }).getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Your result' }).waitFor();
    await page.getByText('Your genes give you a high risk of side effects', { exact: false }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
    await documentTitleIs('Your test result · Prostox Platform');
    // The verified patient's switch is stored with them: their next emails are in English.
    await until(async () => (await ctx.db.models.Patient.findByPk(fixture.patientId))!.preferredLanguage === 'en', { what: 'the language stored', timeoutMs: 10_000 });
    expect(errors).to.deep.equal([]);
  });

  it('shows a corrected result as "Corrected" with what it replaces', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Low-Average Risk' });
    const correctionId = await releaseCorrection(ctx.db, fixture, 'Intermediate Risk', 'Re-analysis of the sample');
    await runJob(ctx, 'render-pdf', { sampleId: fixture.sampleId, documentType: 'lab_report', testResultId: correctionId });
    await open(link!);
    await enterDob('08', '19', '1957');
    await page.getByRole('heading', { name: 'Your result' }).waitFor();
    expect(await page.getByTestId('result-value').textContent()).to.equal('Intermediate Risk');
    await page.getByText('Corrected', { exact: true }).waitFor();
    await page.getByText('It replaces the earlier result (Low-Average Risk).', { exact: false }).waitFor();
    await screenshot(page, 'patient-result-phone-corrected');
    expect(errors).to.deep.equal([]);
  });

  it('a locked link says so, and an unknown link says it does not work', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, withReport: false });
    await ctx.db.models.PatientResultLink.update({ dobFailures: 9 }, { where: { sampleId: fixture.sampleId, revokedAt: null } });
    await open(link!);
    await enterDob('01', '01', '1960');
    await page.getByText('This link is locked after too many attempts. Please contact your provider to have it sent again.').waitFor();
    await page.reload();
    await page.getByText('This link is locked after too many attempts. Please contact your provider to have it sent again.').waitFor();
    expect(await page.getByRole('button', { name: 'Show my result' }).count()).to.equal(0);

    await page.goto(`/reports/patient_result/${fixture.barcode}?token=${'0'.repeat(64)}`);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    expect(errors).to.deep.equal([]);
  });
});

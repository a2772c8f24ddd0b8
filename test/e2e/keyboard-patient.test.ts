/**
 * The patient's pages by keyboard alone on a phone (issue 14), after each page.goto only Tab,
 * Shift+Tab, arrows, Enter, Space and typing: the result page (a wrong then the right date of
 * birth, the result, the report download) and the patient's own order (eligibility, details,
 * treating provider, how they heard, payment, as far as the card page of the local Stripe
 * stand-in). Each step checks where the focus is, that it shows, and that the page has no WCAG
 * 2.1 AA violation.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { browserSuite, collectPageErrors, expectAccessible, screenshot, USER_AGENTS, VIEWPORTS, type BrowserSuite } from '../support/browser';
import { expectVisibleFocus, isFocused, tabTo, waitForFocus } from '../support/keyboard';
import { testConfig } from '../support/server';
import { paymentBrowserSuite } from '../support/stripe';
import { createClinic, deliveredResult, type Clinic } from '../support/fixtures/reports';
import { PROSTOX_ULTRA_PAGE_ANSWERS } from '../support/fixtures/patient-orders';

const phonePage = async (suite: BrowserSuite) => {
  const { page } = await suite.newPage({ userAgent: USER_AGENTS.iphoneSafari, viewport: VIEWPORTS.phone, isMobile: true, bypassCSP: true });
  return { page, errors: collectPageErrors(page) };
};

describe('e2e: the patient result page by keyboard alone (phone)', function () {
  this.timeout(90_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'keyboard-result' });
  let ctx: AppContext;
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    clinic = await createClinic(ctx.db, 'keyboard');
  });
  after(async () => {
    if (ctx) await closeContext(ctx);
  });

  /** Types a date of birth into the three boxes from the month on (each full box hands the focus to the next). */
  async function typeDateOfBirth(page: Page, month: string, day: string, year: string) {
    const boxes = { month: page.getByRole('textbox', { name: 'Month' }), day: page.getByRole('textbox', { name: 'Day' }), year: page.getByRole('textbox', { name: 'Year' }) };
    expect(await isFocused(boxes.month), 'the month box has the focus').to.equal(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(month);
    await waitForFocus(page, boxes.day, 'the day box, once the month is full');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(day);
    await waitForFocus(page, boxes.year, 'the year box, once the day is full');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(year);
  }

  it('a wrong then the right date of birth, the result, and the report download reached and named', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'High Risk' });
    const { page, errors } = await phonePage(suite);
    await page.goto(new URL(link!.url).pathname + new URL(link!.url).search);
    await page.getByRole('heading', { name: `Hello ${fixture.patient.firstName} Q.` }).waitFor();

    // The language switch comes first, then the three boxes.
    const month = page.getByRole('textbox', { name: 'Month' });
    await tabTo(page, page.getByRole('group', { name: 'Language / Idioma' }).getByRole('button', { name: 'English' }), 3);
    await tabTo(page, month, 5);
    await expectVisibleFocus(month);
    await expectAccessible(page, 'the result page asking the date of birth (keyboard)');

    // A wrong date, sent with Enter from the year box: the refusal is said, the focus stays in the form.
    await typeDateOfBirth(page, '09', '18', '1957');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The date of birth does not match our records' }).waitFor();
    expect(await isFocused(page.getByRole('textbox', { name: 'Year' })), 'the year box keeps the focus after the refusal').to.equal(true);
    await expectVisibleFocus(page.getByRole('textbox', { name: 'Year' }));
    await expectAccessible(page, 'the result page after a wrong date of birth (keyboard)');

    // Back to the month with Shift+Tab, the right date, then Tab to the button and Enter: the result's title takes the focus.
    await tabTo(page, month, 3, { backwards: true });
    await typeDateOfBirth(page, '08', '19', '1957');
    const show = page.getByRole('button', { name: 'Show my result' });
    await tabTo(page, show, 3);
    await expectVisibleFocus(show);
    await page.keyboard.press('Enter');
    const title = page.getByRole('heading', { name: 'Your result', level: 1 });
    await waitForFocus(page, title, 'the result\'s title');
    expect(await page.getByTestId('result-value').textContent()).to.equal('High Risk');
    await expectAccessible(page, 'the verified result page (keyboard)');

    // The report download: next in the order, its name its visible words; Enter downloads it and the focus stays on it.
    const download = page.getByRole('button', { name: 'Download report (PDF)' });
    await tabTo(page, download, 3);
    await expectVisibleFocus(download);
    expect((await download.innerText()).trim()).to.equal('Download report (PDF)');
    const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(file.suggestedFilename()).to.equal(`lab-report-${fixture.barcode}.pdf`);
    await waitForFocus(page, download, 'the download button after the download');
    await screenshot(page, 'keyboard-result-verified');
    expect(errors).to.deep.equal([]);
  });
});

describe('e2e: a patient orders by keyboard alone (phone)', function () {
  this.timeout(150_000);
  const { suite } = paymentBrowserSuite({ screenshotPrefix: 'keyboard-patient-order' });

  /** Tab to the question's first answer, then the arrows to the one wanted (a radio group is one Tab stop). */
  async function answer(page: Page, question: RegExp, option: string | RegExp) {
    const group = page.getByRole('radiogroup', { name: question });
    const wanted = group.getByRole('radio', { name: option });
    await tabTo(page, group.getByRole('radio').first(), 6);
    await page.keyboard.press('Space');
    for (let presses = 0; presses < 6 && !(await wanted.isChecked()); presses += 1) await page.keyboard.press('ArrowDown');
    expect(await wanted.isChecked(), `${option} chosen for ${question}`).to.equal(true);
  }

  async function typeInto(page: Page, box: Locator, text: string) {
    await tabTo(page, box, 4);
    await page.keyboard.type(text);
  }

  /** Presses Enter on the step's button; the next step's title takes the focus. */
  async function nextStep(page: Page, button: Locator, title: string) {
    await tabTo(page, button, 6);
    await expectVisibleFocus(button);
    await page.keyboard.press('Enter');
    await waitForFocus(page, page.getByRole('heading', { name: title, level: 2 }), `the step "${title}"`);
  }

  it('eligibility, details, treating provider, how they heard and payment, to the card page', async () => {
    const last = `Keyboard${Date.now().toString(36).replace(/\d/g, '')}`;
    const { page, errors } = await phonePage(suite);
    await page.goto('/patient-portal/order/prostox/new');
    await page.getByRole('heading', { name: 'Order PROSTOX' }).waitFor();
    await expectAccessible(page, 'the order page at its first step (keyboard)');

    // 1. Eligibility: each question one Tab stop, answered with Space and the arrows.
    const [[firstQuestion, firstOption], ...otherAnswers] = PROSTOX_ULTRA_PAGE_ANSWERS;
    await answer(page, firstQuestion, firstOption);
    await expectVisibleFocus(page.getByRole('radiogroup', { name: firstQuestion }).getByRole('radio', { name: firstOption }));
    for (const [question, option] of otherAnswers) await answer(page, question, option);
    await nextStep(page, page.getByRole('button', { name: 'Check my answers' }), 'Your details');
    await expectAccessible(page, 'the order page at the details step (keyboard)');

    // 2. Details, each field next in the order; the clinic typed into its search and chosen with the arrows and Enter.
    await typeInto(page, page.getByRole('textbox', { name: 'First name' }), 'Walter');
    await typeInto(page, page.getByRole('textbox', { name: 'Last name' }), last);
    // The date of birth in its three boxes: a full box moves the cursor on by itself.
    await typeInto(page, page.getByRole('textbox', { name: 'Month' }), '02');
    await typeInto(page, page.getByRole('textbox', { name: 'Day' }), '11');
    await typeInto(page, page.getByRole('textbox', { name: 'Year' }), '1954');
    await typeInto(page, page.getByRole('textbox', { name: 'Email' }), `${last.toLowerCase()}@patients.demo.test`);
    await typeInto(page, page.getByRole('textbox', { name: 'Address line 1' }), '12 Elm Street');
    await typeInto(page, page.getByRole('textbox', { name: 'City' }), 'Springfield');
    await typeInto(page, page.getByRole('textbox', { name: 'State' }), 'IL');
    await typeInto(page, page.getByRole('textbox', { name: 'ZIP code' }), '62701');
    const provider = page.getByRole('combobox', { name: 'Treating provider' });
    await tabTo(page, provider, 3);
    await expectVisibleFocus(provider);
    await page.keyboard.type('Riverside');
    const riverside = page.getByRole('option', { name: 'Riverside Oncology' });
    await riverside.waitFor();
    for (let presses = 0; presses < 10 && (await riverside.getAttribute('data-combobox-selected')) === null; presses += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await provider.inputValue()).to.equal('Riverside Oncology');
    await expectAccessible(page, 'the order page with the details typed (keyboard)');
    await nextStep(page, page.getByRole('button', { name: 'Continue' }), 'How you heard');

    // 3. How they heard; 4. how they pay.
    await answer(page, /How did you hear/, 'My doctor or clinic');
    await expectAccessible(page, 'the order page at the referral step (keyboard)');
    await nextStep(page, page.getByRole('button', { name: 'Continue' }), 'Payment');
    await answer(page, /How will you pay/, /Pay myself: \$500\.00/);
    await expectAccessible(page, 'the order page at the payment step (keyboard)');
    await tabTo(page, page.getByRole('button', { name: 'Continue' }), 6);
    await page.keyboard.press('Enter');
    const summary = page.getByTestId('order-summary');
    await summary.getByText('$500.00').waitFor();
    await waitForFocus(page, page.locator('[tabindex="-1"]', { has: summary }).last(), 'the order summary');

    // 5. The card, next after the summary: the stand-in's card page, its card number reached with Tab.
    const pay = page.getByRole('button', { name: 'Pay $500.00 by card' });
    await tabTo(page, pay, 2);
    await expectVisibleFocus(pay);
    await expectAccessible(page, 'the order summary before the card (keyboard)');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Test payment' }).waitFor();
    await tabTo(page, page.getByRole('textbox', { name: 'Card number' }), 10);
    await screenshot(page, 'keyboard-patient-order-card');
    expect(errors).to.deep.equal([]);
  });
});

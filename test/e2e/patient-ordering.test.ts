/**
 * Patient ordering in a real browser on a phone, against the real API, worker, database, SMTP
 * catcher and the local Stripe stand-in: a patient orders PROSTOX ultra, pays by card on the
 * stand-in's page with 4242…, sees the complete page and receives the receipt; a physician of the
 * chosen clinic finds the order under Patient-ordered and signs it off, and the kit shipment to
 * the patient is ready. Then a clinic's invitation email opens a prefilled order, and a second use
 * of the link is refused. And an order the clinic cancels while the patient is on the card page:
 * the card page no longer takes the card, and the patient's pages show it cancelled with no payment.
 * And an order the patient has not paid: a physician finds it under Patient-ordered, awaiting
 * payment, and cancels it there; its payment intent is cancelled at the stand-in.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { PaymentStatus, ShipmentStatus, TestOrigin } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { expectAccessible, collectPageErrors, USER_AGENTS, VIEWPORTS } from '../support/browser';
import { buildTestApp, signIn as signInApi, type TestApp } from '../support/http';
import { outboxJobSettled } from '../support/jobs';
import { waitForMail } from '../support/mail';
import { paymentBrowserSuite } from '../support/stripe';
import { dialog, signIn } from './pages';
import { PROSTOX_ULTRA_PAGE_ANSWERS } from '../support/fixtures/patient-orders';

describe('e2e: a patient orders PROSTOX on a phone and the clinic signs it off', function () {
  this.timeout(240_000);
  const { suite, standIn } = paymentBrowserSuite({ worker: true, screenshotPrefix: 'patient-ordering' });
  let t: TestApp;
  let riversideId: number;

  before(async () => {
    t = await buildTestApp();
    // Riverside Oncology takes patient orders (the seed): patients may name it as their treating provider.
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
  });
  after(async () => {
    await t?.close();
  });

  const unique = () => Date.now().toString(36).replace(/\d/g, '');

  async function phonePage() {
    const { page } = await suite.newPage({ viewport: VIEWPORTS.phone, isMobile: true, userAgent: USER_AGENTS.iphoneSafari, bypassCSP: true });
    return { page, errors: collectPageErrors(page) };
  }

  async function answer(page: Page, question: RegExp, option: string | RegExp) {
    await page.getByRole('radiogroup', { name: question }).getByRole('radio', { name: option }).check();
  }

  /** Step 1 for PROSTOX ultra, every answer eligible. */
  async function answerEligibility(page: Page) {
    for (const [question, option] of PROSTOX_ULTRA_PAGE_ANSWERS) await answer(page, question, option);
    await page.getByRole('button', { name: 'Check my answers' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
  }

  /** Step 2's fields a patient types (the invitation may have filled some). */
  async function fillDetails(page: Page, who: { first?: string; last?: string; email?: string }) {
    if (who.first) await page.getByRole('textbox', { name: 'First name' }).fill(who.first);
    if (who.last) await page.getByRole('textbox', { name: 'Last name' }).fill(who.last);
    await fillDateOfBirth(page, '02', '11', '1954');
    if (who.email) await page.getByRole('textbox', { name: 'Email' }).fill(who.email);
    await page.getByRole('textbox', { name: 'Address line 1' }).fill('12 Elm Street');
    await page.getByRole('textbox', { name: 'City' }).fill('Springfield');
    await page.getByRole('textbox', { name: 'State' }).fill('IL');
    await page.getByRole('textbox', { name: 'ZIP code' }).fill('62701');
  }

  /** The patient's one date-of-birth input: Month / Day / Year. */
  async function fillDateOfBirth(page: Page, month: string, day: string, year: string) {
    await page.getByRole('textbox', { name: 'Month' }).fill(month);
    await page.getByRole('textbox', { name: 'Day' }).fill(day);
    await page.getByRole('textbox', { name: 'Year' }).fill(year);
  }

  /** Steps 1 to 4 of a self-pay PROSTOX ultra order at Riverside Oncology; answers its number, read from the summary. */
  async function selfPayOrder(
    page: Page, who: { first: string; last: string; email: string }, check: (state: string) => Promise<void> = async () => undefined, { fromHere = false } = {},
  ): Promise<string> {
    if (!fromHere) await page.goto('/patient-portal/order/prostox/new');
    await page.getByRole('heading', { name: 'Order PROSTOX' }).waitFor();
    await check('the order page at its first step');
    await answerEligibility(page);
    await fillDetails(page, who);
    await check('the order page with the patient details filled in');
    await page.getByRole('combobox', { name: 'Treating provider' }).click();
    await page.getByRole('option', { name: 'Riverside Oncology' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'How you heard' }).waitFor();
    // The order exists now; its token is this tab's alone, never in the address.
    expect(page.url()).to.not.match(new RegExp(`token|${who.first}|1954`));
    await answer(page, /How did you hear/, 'My doctor or clinic');
    await page.getByRole('button', { name: 'Continue' }).click();
    await answer(page, /How will you pay/, /Pay myself: \$500\.00/);
    await page.getByRole('button', { name: 'Continue' }).click();
    const summary = page.getByTestId('order-summary');
    await summary.getByText('$500.00').waitFor();
    return (await summary.getByText(/^RPD\d{10}$/).innerText()).trim();
  }

  it('on a phone, a date of birth that does not exist is said under the boxes, in view, and the focus goes to them', async () => {
    const { page, errors } = await phonePage();
    await page.goto('/patient-portal/order/prostox/new');
    await answerEligibility(page);
    await fillDetails(page, { first: 'Dora', last: `Datecheck${unique()}`, email: `dora-${unique()}@patients.demo.test` });
    await fillDateOfBirth(page, '02', '30', '1957'); // no 30th of February
    await page.getByRole('combobox', { name: 'Treating provider' }).click();
    await page.getByRole('option', { name: 'Riverside Oncology' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    // Before: nothing seemed to happen (the error under the sticky header, the focus left on the button: issue 25, item 8).
    const error = page.getByRole('alert').filter({ hasText: 'That date does not exist. Please check the month, day and year.' });
    await error.waitFor();
    const month = page.getByRole('textbox', { name: 'Month' });
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('autocomplete') === 'bday-month');
    expect(await month.getAttribute('aria-describedby')).to.match(/-error$/);
    // In view, below the phone layout's sticky bar (56 px high, layouts.module.css).
    const box = (await error.boundingBox())!;
    expect(box.y, 'the error below the sticky bar').to.be.greaterThan(56);
    expect(box.y + box.height, 'the error within the screen').to.be.lessThan(VIEWPORTS.phone.height);
    await expectAccessible(page, 'the details step with a date of birth that does not exist (phone)');
    expect(errors).to.deep.equal([]);
  });

  it('a reload picks the order up at the payment step; a new order started instead cancels the unpaid one', async () => {
    const last = `Reload${unique()}`;
    const who = { first: 'Rita', last, email: `${last.toLowerCase()}@patients.demo.test` };
    const { page, errors } = await phonePage();
    const first = await selfPayOrder(page, who);
    // Before: the page asked again, and a new order left the unpaid one Awaiting Payment for the clinic to cancel (issue 25, item 7).
    await page.reload();
    await page.getByText(`Order ${first} is waiting for payment.`).waitFor();
    await page.getByRole('button', { name: 'Pay $500.00 by card' }).waitFor();
    await expectAccessible(page, 'an unpaid order picked up after a reload');
    await page.getByRole('button', { name: 'Start a new order instead (this one is then cancelled)' }).click();
    const second = await selfPayOrder(page, who, undefined, { fromHere: true });
    expect(second).to.not.equal(first);
    const old = (await t.ctx.db.models.Order.findOne({ where: { orderNumber: first } }))!;
    expect(old.cancellationReason).to.equal('Replaced by a new order the patient started');
    expect((await t.ctx.db.models.Order.findOne({ where: { orderNumber: second } }))!.cancelledAt).to.equal(null);
    expect(errors).to.deep.equal([]);
  });

  it('orders, pays on the stand-in, gets the receipt, and is signed off by the physician', async () => {
    const last = `Selfpay${unique()}`;
    const email = `${last.toLowerCase()}@patients.demo.test`;

    // 1. The patient orders on a phone.
    const patient = await phonePage();
    let page = patient.page;
    // Every control labelled, readable on a phone (axe: no WCAG 2.1 AA violation).
    const orderNumber = await selfPayOrder(page, { first: 'Walter', last, email }, (state) => expectAccessible(page, state));

    // 2. The card, on the stand-in's test page (in place of Stripe's Payment Element).
    await page.getByRole('button', { name: 'Pay $500.00 by card' }).click();
    await page.getByRole('heading', { name: 'Test payment' }).waitFor();
    await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await page.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill('12/34');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await page.getByRole('textbox', { name: 'ZIP code' }).fill('62701');
    await page.getByRole('button', { name: 'Pay $500.00' }).click();

    // 3. Back on the complete page: the webhook has (or soon has) marked it paid.
    await page.waitForURL(/\/patient-portal\/order\/complete\?order=RPD\d{10}/);
    await page.getByText('Thank you: your order is placed').waitFor();
    expect(await page.getByTestId('order-number').innerText()).to.equal(orderNumber);
    await page.getByText('A receipt has been emailed to you.').waitFor();
    await expectAccessible(page, 'the order complete page');
    expect(patient.errors).to.deep.equal([]);

    const order = (await t.ctx.db.models.Order.findOne({ where: { orderNumber } }))!;
    expect([order.origin, order.paymentStatus]).to.deep.equal([TestOrigin.PatientOrdered, PaymentStatus.Paid]);
    const [receipt] = await waitForMail(email, 1, { matching: (m) => m.text.includes(orderNumber), timeoutMs: 30_000 });
    expect(receipt.text).to.include('$500.00');

    // 4. The physician finds it under Patient-ordered and signs it off.
    const { page: desk } = await suite.newPage({ viewport: VIEWPORTS.desktop });
    page = desk;
    await signIn(page, 'provider', DEMO_USERS.physician.email);
    await page.goto(`/provider-clinic/${riversideId}/pending`);
    await page.getByRole('heading', { name: 'Pending tests' }).waitFor();
    await page.getByText('Patient-ordered', { exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(`${last}, Walter`) });
    await row.getByText('Awaiting Sign-off').waitFor();
    await row.getByRole('button', { name: `Sign off order ${orderNumber}` }).click();
    const signOff = dialog(page, `Sign off order ${orderNumber}`);
    for (const box of await signOff.getByRole('checkbox').all()) await box.check();
    await signOff.getByRole('button', { name: 'Sign off the order' }).click();
    await row.getByText('Signed Off').waitFor();

    // 5. The kit ships to the patient: the shipment to them is ready to ship.
    const shipment = await t.ctx.db.models.Shipment.findOne({ where: { patientId: order.patientId } });
    expect(shipment?.status).to.equal(ShipmentStatus.ReadyToShip);
  });

  it('an order the clinic cancels while the patient is on the card page can no longer be paid, and shows cancelled', async () => {
    const last = `Cancelled${unique()}`;
    const email = `${last.toLowerCase()}@patients.demo.test`;
    const patient = await phonePage();
    const { page } = patient;
    const orderNumber = await selfPayOrder(page, { first: 'Greta', last, email });
    await page.getByRole('button', { name: 'Pay $500.00 by card' }).click();
    await page.getByRole('heading', { name: 'Test payment' }).waitFor();
    const cardPage = page.url();

    // The clinic cancels it before it is paid; the worker cancels its payment intent at Stripe.
    const order = (await t.ctx.db.models.Order.findOne({ where: { orderNumber } }))!;
    const physician = await signInApi(t.app, 'physician', 'provider', '10.73.0.1');
    await physician.post(`/api/provider-clinic/${riversideId}/patient-orders/${order.id}/cancel`, { reason: 'Patient chose another treatment' }).expect(200);
    const cancelJob = await outboxJobSettled(t.ctx, `cancel-payment-intent:${order.id}`);
    expect([cancelJob.status, cancelJob.error]).to.deep.equal(['Completed', null]);

    // Back on the order page in the same tab: the order is cancelled, nothing to pay.
    await page.goto('/patient-portal/order/prostox/new');
    await page.getByText('This order was cancelled').waitFor();
    await page.getByText('Nothing was charged for it.').waitFor();
    await page.getByRole('button', { name: 'Start a new order' }).waitFor();
    expect(await page.getByRole('button', { name: /Continue this order|Pay/ }).count()).to.equal(0);
    await expectAccessible(page, 'the order page of a cancelled order');

    // The card page left open no longer takes the card; its way back leads to the cancelled order.
    await page.goto(cardPage);
    await page.getByText('This payment was cancelled and can no longer be paid').waitFor();
    expect(await page.getByRole('textbox', { name: 'Card number' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Back to your order' }).click();
    await page.waitForURL(/\/patient-portal\/order\/complete\?order=RPD\d{10}/);
    await page.getByText('This order was cancelled').waitFor();
    await page.getByText(/Your clinic cancelled this order, so it can no longer be paid/).waitFor();
    expect(await page.getByRole('button', { name: /Try the card again|Pay/ }).count()).to.equal(0);
    await expectAccessible(page, 'the complete page of a cancelled order');
    expect(patient.errors).to.deep.equal([]);
    expect((await order.reload()).paymentStatus).to.equal(PaymentStatus.AwaitingPayment);
  });

  it('a physician finds an order awaiting payment under Patient-ordered and cancels it; its payment intent is cancelled at Stripe', async () => {
    const last = `Unpaid${unique()}`;
    const email = `${last.toLowerCase()}@patients.demo.test`;
    // The patient orders and opens the card page (the payment intent exists), then leaves without paying.
    const patient = await phonePage();
    const orderNumber = await selfPayOrder(patient.page, { first: 'Hana', last, email });
    await patient.page.getByRole('button', { name: 'Pay $500.00 by card' }).click();
    await patient.page.getByRole('heading', { name: 'Test payment' }).waitFor();
    const order = (await t.ctx.db.models.Order.findOne({ where: { orderNumber } }))!;
    expect(order.stripePaymentIntentId).to.be.a('string');

    const { page } = await suite.newPage({ viewport: VIEWPORTS.desktop });
    const errors = collectPageErrors(page);
    await signIn(page, 'provider', DEMO_USERS.physician.email);
    await page.goto(`/provider-clinic/${riversideId}/pending`);
    await page.getByRole('heading', { name: 'Pending tests' }).waitFor();
    await page.getByText('Patient-ordered', { exact: true }).click();
    await page.getByRole('heading', { name: 'Awaiting payment' }).waitFor();
    const unpaid = page.getByRole('table', { name: 'Orders awaiting payment' });
    const row = unpaid.getByRole('row', { name: new RegExp(`${last}, Hana`) });
    await row.getByText(orderNumber).waitFor();
    await row.getByText('Awaiting Payment', { exact: true }).waitFor();
    await row.getByText('Self-Pay · $500.00 · card payment started').waitFor();
    await expectAccessible(page, 'the Patient-ordered view with an order awaiting payment');

    await row.getByRole('button', { name: `Cancel order ${orderNumber}` }).click();
    const cancel = dialog(page, `Cancel order ${orderNumber}`);
    await cancel.getByText('The patient has not paid: nothing is charged, and the order can no longer be paid.').waitFor();
    await expectAccessible(page, 'the cancel dialog of an unpaid order');
    await cancel.getByRole('button', { name: 'Cancel the order' }).click();
    await cancel.getByText('Give the reason for cancelling').waitFor();
    await expectAccessible(page, 'the cancel dialog without a reason');
    await cancel.getByRole('textbox', { name: 'Reason' }).fill('Patient chose another treatment');
    await cancel.getByRole('button', { name: 'Cancel the order' }).click();
    await page.getByText(`Order ${orderNumber} cancelled`).waitFor();
    await row.waitFor({ state: 'detached' });
    await cancel.waitFor({ state: 'detached' });
    await expectAccessible(page, 'the Patient-ordered view after the cancel');
    expect(errors).to.deep.equal([]);

    // The worker cancelled the intent at Stripe: the patient can no longer pay it.
    const cancelJob = await outboxJobSettled(t.ctx, `cancel-payment-intent:${order.id}`);
    expect([cancelJob.status, cancelJob.error]).to.deep.equal(['Completed', null]);
    const intent = await fetch(`${standIn().url}/v1/payment_intents/${order.stripePaymentIntentId}`, { headers: { Authorization: 'Bearer sk_test_e2echeck' } });
    expect(((await intent.json()) as { status: string }).status).to.equal('canceled');
    const stored = await order.reload();
    expect(stored.cancelledAt).to.be.an.instanceOf(Date);
    expect(stored.paymentStatus).to.equal(PaymentStatus.AwaitingPayment);
  });

  it('opens a prefilled order from an invitation email, and refuses the link a second time', async () => {
    const last = `Invited${unique()}`;
    const email = `${last.toLowerCase()}@patients.demo.test`;

    // The clinic invites the patient.
    const { page: desk } = await suite.newPage({ viewport: VIEWPORTS.desktop });
    await signIn(desk, 'provider', DEMO_USERS.physician.email);
    await desk.goto(`/provider-clinic/${riversideId}/patient-invitations`);
    await desk.getByRole('textbox', { name: 'Patient email' }).fill(email);
    await desk.getByRole('textbox', { name: 'First name' }).fill('Irene');
    await desk.getByRole('textbox', { name: 'Last name' }).fill(last);
    await desk.getByRole('button', { name: 'Send invitation' }).click();
    await desk.getByRole('table', { name: 'Patient invitations' }).getByText(email).waitFor();

    const [invite] = await waitForMail(email, 1, { timeoutMs: 30_000 });
    const link = /https?:\/\/\S+\/patient-portal\/order\/prostox\/new\?invitation=[A-Za-z0-9_-]+/.exec(invite.text)?.[0];
    expect(link, invite.text).to.be.a('string');
    const path = new URL(link!).pathname + new URL(link!).search;

    // The patient opens it on a phone: clinic, names and email are filled in.
    const { page } = await phonePage();
    await page.goto(path);
    await page.getByText('Invited by Riverside Oncology').waitFor();
    await answerEligibility(page);
    expect(await page.getByRole('textbox', { name: 'First name' }).inputValue()).to.equal('Irene');
    expect(await page.getByRole('textbox', { name: 'Last name' }).inputValue()).to.equal(last);
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).to.equal(email);
    await page.getByTestId('treating-provider').getByText('Riverside Oncology').waitFor();
    await fillDetails(page, {});
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'How you heard' }).waitFor();

    // The same link again: used once, refused.
    const { page: again } = await phonePage();
    await again.goto(path);
    await again.getByText('This invitation has already been used').waitFor();
    await again.getByText('This invitation cannot be used').waitFor();
  });
});

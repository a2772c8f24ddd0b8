/**
 * A clinic order by keyboard alone (issue 14): sign in, the skip link, the home page to the order
 * page, the patient search, the test, the attestations and the confirmation, each control reached
 * with Tab and used with Enter or Space, with visible focus and no WCAG 2.1 AA violation on the way.
 */
import { expect } from 'chai';
import { browserSuite, expectAccessible, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { expectVisibleFocus, tabTo } from '../support/keyboard';
import { addPatient, createClinic, TEST_PASSWORD, uniquePatient, type TestClinic } from '../support/fixtures/clinic';
import { signInByKeyboard } from './pages';

describe('e2e: a clinic order by keyboard alone', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'keyboard' });
  let t: TestApp;
  let clinic: TestClinic;
  let patient: Awaited<ReturnType<typeof addPatient>>;

  before(async () => {
    t = await buildTestApp();
    clinic = await createClinic(t.ctx, t.app, 'Keyboard Clinic');
    patient = await addPatient(clinic, uniquePatient({ dateOfBirth: '1958-02-11' }));
  });
  after(async () => {
    await t?.close();
  });

  it('from patient search to the confirmation, with Tab, Enter and Space only', async () => {
    const { page } = await suite.newPage();
    await signInByKeyboard(page, 'provider', clinic.email, TEST_PASSWORD);

    // The page changed: the focus is on its content, and the title names it.
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { id?: string } | null } }).document.activeElement?.id === 'main-content');

    // On a fresh load the skip link comes first and leads past the sidebar into the page.
    await page.reload();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await tabTo(page, skip, 1);
    await expectVisibleFocus(skip);
    await page.keyboard.press('Enter');

    // The home page's "Order a test" card, to the order page: its title says where the person is.
    const orderLink = page.getByRole('link', { name: /^Order a test/ });
    await tabTo(page, orderLink, 10);
    await expectVisibleFocus(orderLink);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Order a test', level: 1 }).waitFor();
    await page.waitForFunction((title) => (globalThis as unknown as { document: { title: string } }).document.title === title, `Order a test · ${clinic.name} · Prostox Platform`);
    await page.getByTestId('route-announcer').getByText(`Order a test · ${clinic.name} · Prostox Platform`).waitFor();

    // 1. The patient: search, then choose the match.
    const search = page.getByRole('textbox', { name: 'Find the patient' });
    await tabTo(page, search);
    await page.keyboard.type(patient.lastName);
    const match = page.getByRole('listitem', { name: `Choose ${patient.firstName} ${patient.lastName}, born 02/11/1958` });
    await tabTo(page, match, 3);
    await expectVisibleFocus(match);
    await page.keyboard.press('Enter');
    await page.getByText(`${patient.firstName} ${patient.lastName}`, { exact: true }).waitFor();

    // 2. The test (the caller's own physician and the buccal swab are chosen for them).
    const test = page.getByRole('checkbox', { name: 'PROSTOX ultra' });
    await tabTo(page, test);
    await page.keyboard.press('Space');
    expect(await test.isChecked()).to.equal(true);
    expect(await page.getByRole('combobox', { name: 'Ordering physician' }).inputValue()).to.match(/^Casey Clinic/);

    // The diagnosis: words typed in the search, the match added with Enter; the focus returns to the search.
    const diagnosis = page.getByRole('textbox', { name: /Find a diagnosis/ });
    await tabTo(page, diagnosis);
    await page.keyboard.type('malignant prostate');
    const add = page.getByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' });
    await tabTo(page, add, 3);
    await expectVisibleFocus(add);
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Diagnosis codes of this order' }).getByText('Malignant neoplasm of prostate').waitFor();
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('placeholder') === 'e.g. prostate cancer, or C61');

    // Placing it before the attestations: the error is said, and the page stays accessible.
    await tabTo(page, page.getByRole('button', { name: 'Place order' }));
    await page.keyboard.press('Enter');
    await page.getByText(/Confirm every attestation/).waitFor();
    await expectAccessible(page, 'the order form refusing unconfirmed attestations (keyboard)');

    // 3. Every attestation, with Space: Shift+Tab goes back up to them, the last first.
    const boxes = await page.getByRole('checkbox', { name: /medically necessary|Informed consent|claim for reimbursement|documentation supporting/ }).all();
    expect(boxes).to.have.length(4);
    for (const box of boxes.reverse()) {
      await tabTo(page, box, 20, { backwards: true });
      await expectVisibleFocus(box);
      await page.keyboard.press('Space');
      expect(await box.isChecked()).to.equal(true);
    }

    // Place it: the confirmation takes the focus.
    await tabTo(page, page.getByRole('button', { name: 'Place order' }));
    await page.keyboard.press('Enter');
    const placed = page.getByRole('heading', { name: 'Order placed' });
    await placed.waitFor();
    await page.waitForFunction(() => {
      const active = (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement;
      return active?.textContent === 'Order placed';
    });
    expect(await page.getByTestId('kit-barcode').innerText()).to.match(/^41\d{12}$/);
    await screenshot(page, 'keyboard-order-placed');
    await expectAccessible(page, 'the order confirmation (keyboard)');
  });
});

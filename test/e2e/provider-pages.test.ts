/**
 * The public information pages for physicians (SPEC §2): /provider/prostox-faq and
 * /provider/prostox-ultra-billing. No sign-in, the provider layout, the catalogue's prices,
 * linked from the Clinical Portal's sign-in page; axe-clean at desktop and phone width, with
 * screenshots kept under test-artifacts/screenshots/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { catalogueEntry, PROSTOX_BOTH, RISK_LEVELS, TestName } from '@platform/domain';
import { documentHref, STATIC_DOCUMENTS } from '../../web/src/documents';
import { expectAccessible, browserSuite, collectPageErrors, screenshot, VIEWPORTS } from '../support/browser';
import { expectPath, SIGN_IN_PAGES, storedUser } from './pages';

const FAQ = { path: '/provider/prostox-faq', heading: 'PROSTOX questions and answers' };
const BILLING = { path: '/provider/prostox-ultra-billing', heading: 'PROSTOX ultra billing and prices' };

const usd = (cents: number | null) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format((cents ?? NaN) / 100);

describe('e2e: information pages for physicians', function () {
  this.timeout(60_000);
  const suite = browserSuite();
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    ({ page } = await suite.newPage());
    errors = collectPageErrors(page);
  });

  const layoutOf = (p: Page) => p.locator('[data-layout]').first().getAttribute('data-layout');
  const h1 = (p: Page, name: string) => p.getByRole('heading', { level: 1, name, exact: true });

  it('shows the PROSTOX FAQ without sign-in, in the provider layout, as an accordion of questions', async () => {
    await page.goto(FAQ.path);
    await h1(page, FAQ.heading).waitFor();
    await expectPath(page, FAQ.path);
    expect(await layoutOf(page)).to.equal('provider');
    expect(await storedUser(page)).to.equal(null);

    const questions = page.getByRole('heading', { level: 2 });
    expect(await questions.allTextContents()).to.include.members([
      'What do PROSTOX ultra and PROSTOX CFRT test for?',
      'Which test should I order?',
      'How is the sample collected?',
      'How are results reported?',
      'How do I order in the Clinical Portal?',
      'How do patients get their results?',
      'Who do I contact?',
    ]);
    // The first answer is open; the others open on request.
    await page.getByText(/fewer than 7 sessions over 1-2 weeks/).first().waitFor();
    const results = page.getByRole('button', { name: 'How are results reported?' });
    expect(await results.getAttribute('aria-expanded')).to.equal('false');
    await results.click();
    expect(await results.getAttribute('aria-expanded')).to.equal('true');
    for (const level of RISK_LEVELS) await page.getByRole('rowheader', { name: level, exact: true }).waitFor();
    expect(errors).to.deep.equal([]);
  });

  it("shows the PROSTOX ultra billing page with the catalogue's prices in US dollars and the assistance program PDF", async () => {
    await page.goto(BILLING.path);
    await h1(page, BILLING.heading).waitFor();
    expect(await layoutOf(page)).to.equal('provider');
    for (const name of ['Prices', 'Insurance: your practice submits the claim', 'Self-pay and financial assistance', 'Questions']) {
      await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
    }

    const ultra = catalogueEntry(TestName.ProstoxUltra);
    const table = page.getByTestId('price-table');
    const ultraRow = table.getByRole('row', { name: new RegExp(`^${TestName.ProstoxUltra} \\$`) });
    expect(await ultraRow.getByRole('cell').allTextContents()).to.deep.equal([usd(ultra.selfPayCents), usd(ultra.assistanceCents)]);
    const bothRow = table.getByRole('row', { name: /together/ });
    expect(await bothRow.getByRole('cell').allTextContents()).to.deep.equal([usd(PROSTOX_BOTH.selfPayCents), usd(PROSTOX_BOTH.assistanceCents)]);
    expect(usd(ultra.selfPayCents)).to.match(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);

    // The claim is the provider's, in the words of the ordering attestation.
    await page.getByText('The patient acknowledges that the provider will submit a claim for reimbursement for this testing.').waitFor();

    const doc = STATIC_DOCUMENTS.find((d) => d.id === 'financial-assistance')!;
    const pdfLink = page.getByRole('link', { name: `${doc.title} (PDF)` });
    expect(await pdfLink.getAttribute('href')).to.equal(documentHref(doc));
    const pdf = await page.request.get(documentHref(doc));
    expect(pdf.status()).to.equal(200);
    expect(pdf.headers()['content-type']).to.equal('application/pdf');
    expect(errors).to.deep.equal([]);
  });

  it("is linked from the Clinical Portal's sign-in page, and the two pages link each other", async () => {
    await page.goto(SIGN_IN_PAGES.provider);
    const links = page.getByRole('navigation', { name: 'Information for physicians' });
    await links.getByRole('link', { name: 'PROSTOX questions and answers' }).click();
    await h1(page, FAQ.heading).waitFor();
    await page.getByRole('navigation', { name: 'More for physicians' }).getByRole('link', { name: 'PROSTOX ultra billing and prices' }).click();
    await h1(page, BILLING.heading).waitFor();
    await expectPath(page, BILLING.path);
    await page.getByRole('link', { name: 'Sign in to the Clinical Portal to order' }).click();
    await expectPath(page, SIGN_IN_PAGES.provider);

    // Only the Clinical Portal's sign-in page carries them.
    await page.goto(SIGN_IN_PAGES.lab);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Information for physicians' }).count()).to.equal(0);
  });

  for (const { name, path, heading } of [{ name: 'provider-prostox-faq', ...FAQ }, { name: 'provider-prostox-ultra-billing', ...BILLING }]) {
    for (const [width, viewport] of [['1280', VIEWPORTS.desktop], ['375', VIEWPORTS.phone]] as const) {
      it(`${path} at ${width}px: no WCAG 2.1 AA violation, screenshot kept`, async () => {
        const { context: ctx, page: p } = await suite.newPage({ viewport, isMobile: width === '375', bypassCSP: true });
        try {
          await p.goto(path);
          await h1(p, heading).waitFor();
          // Every answer open, so all of the content is checked and in the picture: each question opened
          // from the keyboard and seen open before the next. (Clicks land on a point: with an answer above
          // still unfolding, a click could land on the question just opened and close it again.)
          const questions = p.locator('button[aria-expanded]');
          for (let i = 0, n = await questions.count(); i < n; i += 1) {
            const question = questions.nth(i);
            if ((await question.getAttribute('aria-expanded')) === 'true') continue;
            await question.press('Enter');
            await question.and(p.locator('[aria-expanded="true"]')).waitFor();
          }
          expect(await p.locator('button[aria-expanded="false"]').count()).to.equal(0);
          await p.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
          await p.waitForTimeout(400); // let the accordion and transitions settle
          await screenshot(p, `${name}-${width}`);
          await expectAccessible(p, `${path} at ${width}px`);
          if (width === '375') {
            const scrollWidth = await p.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
            expect(scrollWidth, 'no sideways scrolling').to.be.at.most(375);
          }
        } finally {
          await ctx.close();
        }
      });
    }
  }
});

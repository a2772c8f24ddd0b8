/**
 * What index.html names for a phone's first page (api/src/web/index-html.ts), in a real browser:
 * every script and stylesheet the page loads is named in index.html (none waits for the main
 * script to ask for it), and the patient result page's first read is fetched once: the page is
 * answered from the preload, so one read, one audit row.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { browserSuite, collectPageErrors, USER_AGENTS, VIEWPORTS } from '../support/browser';
import { testConfig } from '../support/server';
import { createClinic, deliveredResult, type Clinic } from '../support/fixtures/reports';

/** The page's scripts and stylesheets, each with what asked for it ('link': index.html's tags; 'script': the main script). */
const assetsLoaded = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.startsWith('/assets/'))
      .map((e) => ({ path: new URL(e.name).pathname, by: (e as unknown as { initiatorType: string }).initiatorType })),
  );

const namedIn = (html: string, assetPath: string) => html.includes(`href="${assetPath}"`) || html.includes(`src="${assetPath}"`);

describe('index.html names the first page’s chunks and read (browser, phone)', function () {
  this.timeout(90_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'page-preloads' });
  let ctx: AppContext;
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    clinic = await createClinic(ctx.db, 'preloads');
  });
  after(async () => {
    if (ctx) await closeContext(ctx);
  });

  const phonePage = async () => (await suite.newPage({ userAgent: USER_AGENTS.iphoneSafari, viewport: VIEWPORTS.phone, isMobile: true })).page;

  it('the sign-in page loads only scripts and stylesheets index.html names', async () => {
    const page = await phonePage();
    const errors = collectPageErrors(page);
    await page.goto('/provider/login');
    await page.getByRole('heading', { name: 'Sign in', exact: false }).first().waitFor();
    const html = await (await page.request.get('/provider/login')).text();
    const assets = await assetsLoaded(page);
    expect(assets.filter((a) => a.path.endsWith('.js')).length, 'scripts loaded').to.be.greaterThan(1);
    expect(assets.filter((a) => !namedIn(html, a.path)), 'loaded without being named in index.html').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });

  it('the patient order page shows its first step with only what index.html names; the later steps load once the patient starts', async () => {
    const path = '/patient-portal/order/prostox/new';
    const page = await phonePage();
    const errors = collectPageErrors(page);
    const html = await (await page.request.get(path)).text();
    const unnamed: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/') && !namedIn(html, pathname)) unnamed.push(pathname);
    });
    await page.goto(path);
    await page.getByRole('heading', { name: 'Order PROSTOX', exact: false }).first().waitFor();
    const firstQuestion = page.getByRole('radiogroup', { name: /18 years of age/ });
    await firstQuestion.waitFor();
    await page.waitForLoadState('networkidle');
    expect(unnamed, 'loaded without being named in index.html, before the patient did anything').to.deep.equal([]);
    // The first answer asks for the later steps' code (it competes with nothing then).
    const laterSteps = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/assets/later-steps-'));
    await firstQuestion.getByRole('radio', { name: 'Yes' }).check();
    expect((await laterSteps).ok()).to.equal(true);
    expect(errors).to.deep.equal([]);
  });

  it('the patient result page reads the link once, from the preload, and that read is audited once', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Low Risk', withReport: false });
    const page = await phonePage();
    const errors = collectPageErrors(page);
    const url = new URL(link!.url);
    await page.goto(url.pathname + url.search);
    await page.getByRole('heading', { name: `Hello ${fixture.patient.firstName} Q.` }).waitFor();
    // The greeting is drawn from the answer to whichever request the page used: by now both would have been answered.
    const reads = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.startsWith('/api/reports/patient-result/'))
        .map((e) => (e as unknown as { initiatorType: string }).initiatorType),
    );
    expect(reads).to.deep.equal(['link']);
    const opened = await ctx.db.models.AuditEvent.count({ where: { action: 'result.link_opened', entityKind: 'sample', entityId: String(fixture.sampleId) } });
    expect(opened).to.equal(1);
    expect(errors).to.deep.equal([]);
  });
});

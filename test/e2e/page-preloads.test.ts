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

  for (const [name, path, heading] of [
    ['sign-in', '/provider/login', 'Sign in'],
    ['patient order', '/patient-portal/order/prostox/new', 'Order PROSTOX'],
  ] as const) {
    it(`the ${name} page loads only scripts and stylesheets index.html names`, async () => {
      const page = await phonePage();
      const errors = collectPageErrors(page);
      await page.goto(path);
      await page.getByRole('heading', { name: heading, exact: false }).first().waitFor();
      const html = await (await page.request.get(path)).text();
      const assets = await assetsLoaded(page);
      expect(assets.filter((a) => a.path.endsWith('.js')).length, 'scripts loaded').to.be.greaterThan(1);
      const unnamed = assets.filter((a) => !html.includes(`href="${a.path}"`) && !html.includes(`src="${a.path}"`));
      expect(unnamed, 'loaded without being named in index.html').to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    });
  }

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

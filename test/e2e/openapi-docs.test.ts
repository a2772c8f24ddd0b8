/**
 * The API's reference page, /api/docs, in Chromium under the app's own Content-Security-Policy (no
 * bypass): Swagger UI starts, reads /api/openapi.json and lists the API's operations, with no
 * script error, no CSP violation and no request to another origin.
 */
import { expect } from 'chai';
import { browserSuite, collectPageErrors } from '../support/browser';

/** What the page's start-up script (api/src/openapi/openapi.routes.ts) leaves on window: Swagger UI's own selectors. */
interface SwaggerWindow {
  ui: {
    specSelectors: { taggedOperations(): { keySeq(): { toJS(): string[] } } };
    errSelectors: { allErrors(): { size: number } };
  };
}

describe('The API reference page /api/docs (browser)', function () {
  this.timeout(90_000);
  const suite = browserSuite({ screenshotPrefix: 'openapi-docs' });

  it('shows every area of the API from the app\'s own files, under its CSP', async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));

    const response = await page.goto('/api/docs');
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-security-policy']).to.match(/script-src 'self'/);
    // Each area of the API is a tag of operations (the document's first path segment after /api). Swagger UI
    // renders the list virtually: the first areas at once, the last once scrolled to.
    await page.locator('#operations-tag-auth').waitFor({ timeout: 30_000 });
    const areas = await page.evaluate(() => (globalThis as unknown as SwaggerWindow).ui.specSelectors.taggedOperations().keySeq().toJS());
    for (const area of ['auth', 'admin', 'lab-toolbox', 'provider-clinic', 'provider-research', 'reports']) expect(areas).to.include(area);
    expect(await page.evaluate(() => (globalThis as unknown as SwaggerWindow).ui.errSelectors.allErrors().size), 'errors Swagger UI found in the document').to.equal(0);
    await page.evaluate(() => {
      const w = globalThis as unknown as { scrollTo(x: number, y: number): void; document: { body: { scrollHeight: number } } };
      w.scrollTo(0, w.document.body.scrollHeight);
    });
    await page.locator(`#operations-tag-${areas[areas.length - 1]}`).waitFor({ timeout: 30_000 });
    expect(errors, errors.join('\n')).to.deep.equal([]);
    expect([...origins]).to.deep.equal([new URL(suite.baseUrl).origin]);
  });
});

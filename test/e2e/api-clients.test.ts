/**
 * The clinic's API clients page in Chromium (issue 27): a Super Admin creates a client with a
 * webhook, copies its secrets (shown once), gets a token with them, sees a released result's
 * notice in the client's delivery log, redelivers it (the receiver gets the same webhook-id again,
 * verified by the `standardwebhooks` library) and revokes the client.
 */
import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { DEMO_USERS, DEMO_PASSWORD } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { buildTestApp, signIn as signInApi, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, TestName, userId } from '../support/fixtures/lab';
import { until } from '../support/wait';
import { signIn as signInPage } from './pages';

describe('API clients page (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'api-clients' });
  let t: TestApp;
  let riversideId: number;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  let hookUrl: string;

  before(async () => {
    t = await buildTestApp();
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  after(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await t?.close();
  });

  const codeOf = (page: Page, label: string) => page.getByLabel(label, { exact: true }).innerText();

  it('creates a client, shows its secrets once, logs a release notice, redelivers it and revokes the client', async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signInPage(page, 'provider', DEMO_USERS.superAdmin.email);
    await page.goto(`/provider-clinic/${riversideId}/api-clients`);
    await page.getByRole('heading', { name: 'API clients' }).waitFor();
    await page.getByRole('button', { name: 'New API client' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Name is required').waitFor();
    const name = `EHR ${Date.now().toString(36)}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Webhook URL').fill(hookUrl);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`${name} was created: copy its secrets now`).waitFor();
    await expectAccessible(page, 'api clients: new client secrets');
    const clientId = await codeOf(page, 'Client ID');
    const clientSecret = await codeOf(page, 'Client secret');
    const webhookSecret = await codeOf(page, 'Webhook signing secret');
    expect(clientId).to.match(/^pc_[0-9a-f]{24}$/);
    await page.getByRole('button', { name: 'I have copied them' }).click();
    expect(await page.getByText(clientSecret).count()).to.equal(0);

    // The secrets work: a token, and the row says the client was used.
    await request(suite.baseUrl).post('/oauth2/token').type('form').send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).expect(200);

    // A result released in the account: its notice reaches the receiver, signed.
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const r = await makeResult(t.ctx.db, s.testIds[0], 'Low Risk', await userId(t.ctx.db, 'lab1'));
    const lab2 = await signInApi(t.app, 'lab2', 'lab', '10.82.0.2');
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(200);
    const ofSample = () => received.filter((x) => x.body.includes(s.barcode));
    await until(() => ofSample().length === 1, { what: 'the release notice' });
    const verified = new Webhook(webhookSecret).verify(ofSample()[0].body, ofSample()[0].headers as Record<string, string>) as { type: string };
    expect(verified.type).to.equal('result.released');

    // The delivery log, and a redelivery of the same message from the page.
    await page.reload();
    await page.getByRole('button', { name: `Webhook deliveries of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Webhook deliveries: ${name}` });
    const row = dialog.getByRole('row').filter({ hasText: s.barcode });
    await row.getByText('Delivered').waitFor();
    await row.getByText(/HTTP 204 in \d+ ms/).waitFor();
    await expectAccessible(page, 'api clients: delivery log');
    await row.getByRole('button', { name: `Redeliver the result.released notice of ${s.barcode}` }).click();
    await page.getByText(`The result.released notice of ${s.barcode} is being sent again.`).waitFor();
    await until(() => ofSample().length === 2, { what: 'the redelivered notice' });
    expect(ofSample()[1].headers['webhook-id']).to.equal(ofSample()[0].headers['webhook-id']);
    new Webhook(webhookSecret).verify(ofSample()[1].body, ofSample()[1].headers as Record<string, string>);
    await page.keyboard.press('Escape');

    // Revoked: its secret gets no token any more.
    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: `Revoke ${name}?` }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`${name} was revoked: its tokens no longer work.`).waitFor();
    await page.getByRole('row').filter({ hasText: name }).getByText(/^Revoked/).waitFor();
    await request(suite.baseUrl).post('/oauth2/token').type('form').send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).expect(401);
    expect(errors).to.deep.equal([]);
  });

  it("tells a physician who is not the account's super admin who manages its API clients", async () => {
    const { page } = await suite.newPage();
    await signInPage(page, 'provider', DEMO_USERS.physician.email);
    await page.goto(`/provider-clinic/${riversideId}/api-clients`);
    await page.getByText("Only this account's super admins manage its API clients").waitFor();
  });
});

/**
 * The admin's Public health reporting page in Chromium (issue 28, item 4): the lab's admin is told
 * what the settings lack, sets a daily batch file, a COVID-19 result is released, "Write the batch
 * file now" writes it to the folder, and the page shows the file, the day's counts and the message.
 * axe on the form with its errors and on the report.
 */
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CovidPcrResult } from '@platform/domain';
import { DEMO_USERS, DEMO_PASSWORD } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { buildTestApp, signIn as signInApi, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, TestName, userId } from '../support/fixtures/lab';
import { expectValidHl7 } from '../support/hl7-validator';
import { signIn } from './pages';

describe('Public health reporting page (browser)', function () {
  this.timeout(120_000);
  const batchRoot = mkdtempSync(path.join(os.tmpdir(), 'elr-e2e-'));
  const suite = browserSuite({ screenshotPrefix: 'public-health', serverEnv: () => ({ ELR_BATCH_ROOT: batchRoot }) });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ ELR_BATCH_ROOT: batchRoot });
  });
  after(async () => {
    await t?.ctx.db.sequelize.query('UPDATE elr_settings SET enabled = false');
    await t?.close();
    await rm(batchRoot, { recursive: true, force: true });
  });

  it('sets a daily batch file, writes a released COVID-19 result to it, and shows the file, the day and the message', async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', DEMO_USERS.admin.email);
    await page.goto('/admin/provider/public-health');
    await page.getByRole('heading', { name: 'Public health reporting', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Public health reporting settings' });
    await form.getByRole('radio', { name: 'Daily batch file' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Folder is required').waitFor();
    await expectAccessible(page, 'public health: the settings with their errors');

    await form.getByRole('textbox', { name: 'Folder' }).fill('state/outgoing');
    await form.getByRole('textbox', { name: 'Receiving application' }).fill('STATE ELR');
    await form.getByRole('textbox', { name: 'Receiving facility' }).fill('STATE DOH');
    await form.getByRole('switch', { name: 'Enabled: report COVID-19 results to public health' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Public health reporting saved: COVID-19 results are reported in a daily batch file.' }).first().waitFor();

    // A lab user releases a DETECTED PCR result (the second lab user approves the first's entry).
    const lab2 = await signInApi(t.app, 'lab2', 'lab', '10.84.0.2');
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.CovidPcr] });
    const r = await makeResult(t.ctx.db, s.testIds[0], CovidPcrResult.Detected, await userId(t.ctx.db, 'lab1'));
    await lab2.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(200);

    await page.reload();
    const messages = page.getByRole('table', { name: 'Latest messages' });
    await messages.getByRole('row').filter({ hasText: s.barcode }).getByText('Pending').waitFor();
    await page.getByRole('button', { name: 'Write the batch file now' }).click();
    const batches = page.getByRole('table', { name: 'Batch files' });
    const batchRow = batches.getByRole('row').filter({ hasText: /^ELR_/ }).first();
    await batchRow.waitFor();
    await messages.getByRole('row').filter({ hasText: s.barcode }).getByText('Batched').waitFor();
    // Today's row, the newest: Reported, Sent, Acknowledged, Batched, Failed, Pending.
    const today = page.getByRole('table', { name: 'Reports by day' }).locator('tbody tr').first();
    await today.locator('td').nth(4).getByText('1', { exact: true }).waitFor();
    expect((await today.locator('td').allInnerTexts()).slice(1).map((c) => c.trim())).to.deep.equal(['1', '1', '0', '1', '0', '0']);
    await expectAccessible(page, 'public health: a batch file written');

    const [fileName] = await readdir(path.join(batchRoot, 'state', 'outgoing'));
    expect(await batchRow.innerText()).to.include(fileName);
    const text = await readFile(path.join(batchRoot, 'state', 'outgoing', fileName), 'utf8');
    const message = text.split('\r').filter((seg) => !/^(FHS|BHS|BTS|FTS)\|/.test(seg)).join('\r');
    expectValidHl7(message);
    expect(message).to.include(`|${s.barcode}^`).and.include('|260373001^Detected^SCT');
    expect(errors).to.deep.equal([]);
  });
});

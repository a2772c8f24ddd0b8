/**
 * The admin's HL7 interfaces page in Chromium (issue 28): the lab's admin finds an account, is
 * told what the connection lacks, saves it, sends a test message to an MLLP listener in this
 * process and reads its ACK, then finds the message in the account's log. axe on the form with
 * its errors and with the answer shown.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Hl7Message } from '@medplum/core';
import { buildAck, startMllpListener, type MllpListener } from '@platform/server';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { createAccount } from '../support/fixtures/campaigns';
import { expectValidHl7 } from '../support/hl7-validator';
import { signIn } from './pages';

describe('HL7 interfaces page (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'hl7-interfaces' });
  let t: TestApp;
  let ehr: MllpListener;
  const received: string[] = [];
  let accountName: string;

  before(async () => {
    t = await buildTestApp();
    accountName = (await createAccount(t.ctx.db, 'Hospital EHR')).name;
    ehr = await startMllpListener({
      port: 0,
      onMessage: (message) => {
        received.push(message.toString());
        return buildAck(message, { code: 'AA' });
      },
    });
  });
  after(async () => {
    await ehr?.close();
    await t?.close();
  });

  const field = (page: Page, label: string) => page.getByRole('textbox', { name: label });

  it("connects an account's EHR, sends a test message and shows its ACK, then the message in the log", async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', DEMO_USERS.admin.email);
    await page.goto('/admin/provider/hl7');
    await page.getByRole('heading', { name: 'HL7 interfaces', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Account', exact: true }).fill(accountName);
    await page.getByRole('option', { name: accountName, exact: true }).click();
    const form = page.getByRole('form', { name: `HL7 interface of ${accountName}` });
    await form.waitFor();
    expect(await form.getByRole('button', { name: 'Send test message' }).isDisabled()).to.equal(true);

    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Host is required').waitFor();
    await expectAccessible(page, 'hl7 interfaces: the connection with its errors');

    await field(page, 'Host').fill('127.0.0.1');
    await page.getByRole('textbox', { name: 'Port' }).fill(String(ehr.port));
    await field(page, 'Receiving application').fill('EPIC');
    await field(page, 'Receiving facility').fill('HOSPITAL');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: `The HL7 interface of ${accountName} was saved (not enabled).` }).first().waitFor();

    await form.getByRole('button', { name: 'Send test message' }).click();
    await form.getByText('Acknowledged: AA').waitFor();
    await expectAccessible(page, 'hl7 interfaces: a test message acknowledged');
    expect(received).to.have.length(1);
    expectValidHl7(received[0]);
    const sent = Hl7Message.parse(received[0]);
    expect(sent.getSegment('MSH')!.getField(5).toString()).to.equal('EPIC');
    expect(sent.getSegment('MSH')!.getField(11).toString()).to.equal('T');

    const log = page.getByRole('table', { name: 'HL7 messages' });
    const row = log.getByRole('row').filter({ hasText: sent.getSegment('MSH')!.getField(10).toString() });
    await row.getByText('Test message').waitFor();
    await row.getByText('Acknowledged').waitFor();
    expect(errors).to.deep.equal([]);
  });
});

/**
 * The PROSTOX registry survey in a real browser on a phone: a released PROSTOX result schedules
 * the survey; when it is due (the clock moved by the test) the worker emails it; the patient opens
 * the link from the email the catcher caught, answers every question once, and a second use of the
 * same link is refused with a clear message.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { FOLLOW_UP_LINK_MESSAGES, FollowUpStatus, PROSTOX_REGISTRY_SURVEY } from '@platform/domain';
import { scheduleRegistryFollowUps, sendDueFollowUps } from '@platform/server';
import { expectAccessible, browserSuite, collectPageErrors, screenshot, USER_AGENTS, VIEWPORTS } from '../support/browser';
import { testConfig } from '../support/server';
import { waitForMail } from '../support/mail';
import { createClinic, createResult, type Clinic } from '../support/fixtures/reports';

const SURVEY_LINK = /https?:\/\/\S+\/registry\/study\/prostox\/\d+\/survey\/new\?token=[0-9a-f]{64}/;

describe('registry survey (browser, phone)', function () {
  this.timeout(90_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'registry-survey' });
  let ctx: AppContext;
  let page: Page;
  let errors: string[];
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    clinic = await createClinic(ctx.db, 'registry');
  });
  after(async () => {
    if (ctx) await closeContext(ctx);
  });
  beforeEach(async () => {
    ({ page } = await suite.newPage({ userAgent: USER_AGENTS.iphoneSafari, viewport: VIEWPORTS.phone, isMobile: true, bypassCSP: true }));
    errors = collectPageErrors(page);
  });

  it('opens the emailed link, answers the survey once, and a second use is refused', async () => {
    const fixture = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: 'PROSTOX CFRT', value: 'Low-Average Risk' });
    const releasedAt = new Date('2026-10-20T16:30:00Z');
    await ctx.db.sequelize.transaction((t) => scheduleRegistryFollowUps(ctx.db, t, { sampleId: fixture.sampleId, testName: 'PROSTOX CFRT', releasedAt, timeZone: ctx.config.labTimeZone }));
    const [threeMonths] = await ctx.db.models.SampleFollowUp.findAll({ where: { sampleId: fixture.sampleId }, order: [['months', 'ASC']] });
    await sendDueFollowUps(ctx, { now: threeMonths.dueAt });

    const [mail] = await waitForMail(fixture.patient.email!, 1, { matching: (m) => /follow-up survey/.test(m.subject) });
    expect(mail.subject).to.equal('Your 3-month Prostox follow-up survey');
    const link = new URL(SURVEY_LINK.exec(mail.text)![0]);
    const path = link.pathname + link.search;

    await page.goto(path);
    await page.getByRole('heading', { name: `Hello ${fixture.patient.firstName}.` }).waitFor();
    expect(await page.locator('[data-layout="plain"]').count(), 'the registry has the plain layout').to.equal(1);
    expect(await page.locator('nav[aria-label]').count(), 'no sidebar').to.equal(0);
    await screenshot(page, 'registry-survey-phone-open');

    for (const q of PROSTOX_REGISTRY_SURVEY) {
      const group = page.getByRole('radiogroup', { name: q.text });
      await group.getByRole('radio', { name: q.kind === 'scale' ? q.options[0] : 'No', exact: true }).check();
    }
    // "Other" asks what it means, and sends nothing until it is said.
    await page.getByRole('radiogroup', { name: PROSTOX_REGISTRY_SURVEY[1].text }).getByRole('radio', { name: 'Other', exact: true }).check();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await page.getByText('Please say what "Other" means').waitFor();
    await page.getByRole('textbox', { name: 'Please say what “Other” means' }).fill('Only at night');
    await expectAccessible(page, 'the registry survey answered');
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await screenshot(page, 'registry-survey-phone-thanks');

    const answered = await threeMonths.reload();
    expect(answered.status).to.equal(FollowUpStatus.Answered);
    const stored = answered.answers as { answers: Record<string, unknown>; details: Record<string, string> };
    expect(stored.answers).to.include({ urineLeaks: 0, urinePads: 'Other', sawDoctor: 'No' });
    expect(stored.details).to.deep.equal({ urinePads: 'Only at night' });

    // The same link again: refused, plainly.
    await page.goto(path);
    await page.getByRole('heading', { name: 'Already answered' }).waitFor();
    await page.getByText(FOLLOW_UP_LINK_MESSAGES.answered).waitFor();
    expect(await page.getByRole('button', { name: 'Send my answers' }).count()).to.equal(0);
    await screenshot(page, 'registry-survey-phone-used');
    expect(errors.filter((e) => !/status of 409/.test(e))).to.deep.equal([]);
  });
});

/**
 * The lab's "must show", as one journey in a real browser (Debian's Chromium) on the real API and
 * worker: lab1 imports an extraction run with one out-of-range row and sends that sample to
 * re-extraction; lab1 cannot approve their own extractions, lab2 approves the rest; one sample's
 * ordered test is resulted and delivered (Completed, by the worker); lab1 places the samples on a
 * storage plate from the keyboard, the plate map shows each in its well, the Completed one is
 * discarded; its timeline, as the ordering physician's patient page shows it (and the LIMS sample
 * call answers lab users), has every step in order with who did it.
 *
 * How the sample reaches Completed: through the product, not a fixture. A released DNA extraction
 * reports nothing (its sample stays In Testing), so the sample's ordered PROSTOX CFRT result is
 * imported by lab1 and approved by lab2 on the review page (In Testing -> Resulted); the worker's
 * notify-result job delivers it (Resulted -> Completed).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { JobStatus, TestResultStatus } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { dialog, signIn, signWithPassword } from './pages';
import { browserSuite, collectPageErrors, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { outboxJobSettled } from '../support/jobs';
import { makeSample, SampleStatus, statusOf, TestName, timeline } from '../support/fixtures/lab';
import { freshPlateName } from '../support/fixtures/storage';

const LEO = `${DEMO_USERS.lab1.firstName} ${DEMO_USERS.lab1.lastName}`; // lab1
const LENA = `${DEMO_USERS.lab2.firstName} ${DEMO_USERS.lab2.lastName}`; // lab2

/** The steps of one sample's timeline on the clinic's patient page: status, and who (the line "date · who"). */
async function timelineShown(page: Page, barcode: string): Promise<{ status: string; who: string; reason: string | null }[]> {
  const items = page.getByRole('article', { name: `Sample ${barcode}` }).locator('.mantine-Timeline-item');
  return items.evaluateAll((nodes) =>
    nodes.map((node) => {
      const el = node as unknown as { querySelector(s: string): { textContent: string | null } | null; querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
      const lines = Array.from(el.querySelectorAll('.mantine-Timeline-itemContent p')).map((p) => (p.textContent ?? '').trim());
      return { status: (el.querySelector('.mantine-Timeline-itemTitle')?.textContent ?? '').trim(), who: (lines[0] ?? '').split(' · ').slice(1).join(' · '), reason: lines[1] ?? null };
    }),
  );
}

describe('lab journey: extraction run, review, storage, discard, timeline (browser)', function () {
  this.timeout(180_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'lab-journey' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  async function signedIn(portal: 'lab' | 'provider', email: string): Promise<{ page: Page; errors: string[] }> {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, portal, email);
    return { page, errors };
  }

  it('lab1 imports a run with one sample out of range and sends it to re-extraction, lab2 approves the rest; one sample is completed, stored, discarded; its timeline shows every step', async () => {
    const db = t.ctx.db;
    // Received samples of our own: two In Queue, one already In Testing (both are what an extraction run takes).
    const done = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] }); // resulted, stored, discarded
    const kept = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Kras] }); // stored, stays In Testing
    const low = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] }); // 2 ng/µL: re-extraction
    const reex = `${low.barcode}.reex`;
    const csv = [
      'Sample ID,Concentration (ng/µL),A260/280,Volume (µL),Plate,Well',
      `${done.barcode},48.2,1.88,40,EX-77,A1`,
      `${kept.barcode},35,1.9,35,EX-77,B1`,
      `${low.barcode},2,1.85,40,EX-77,C1`,
    ].join('\n');

    const lab1 = await signedIn('lab', DEMO_USERS.lab1.email); // page A
    const lab2 = await signedIn('lab', DEMO_USERS.lab2.email); // page B
    const A = lab1.page;
    const B = lab2.page;

    // 1. lab1 checks the run: the dry run flags row 4 (the header is row 1) and says why; nothing written yet.
    await A.goto('/lab_toolbox/dna_extraction_import_tool');
    await A.getByRole('heading', { name: 'DNA extraction import' }).waitFor();
    await A.locator('input[type=file]').setInputFiles({ name: 'run-77.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await A.getByRole('button', { name: 'Check the file' }).click();
    await A.getByText('Every row can be imported').waitFor();
    await A.getByText(/1 row outside it \(flagged below\)/).waitFor();
    const checked = A.getByRole('table', { name: 'Flagged rows of the check' });
    await checked.locator('tbody tr').first().waitFor();
    expect(await checked.locator('tbody tr').count()).to.equal(1);
    const flaggedRow = (await checked.locator('tbody tr td').allInnerTexts()).map((s) => s.trim());
    expect(flaggedRow[0], 'row number').to.equal('4');
    expect(flaggedRow[1], 'sample').to.equal(low.barcode);
    expect(flaggedRow.at(-1), 'why').to.equal('Concentration 2 ng/µL is below 10 ng/µL');
    expect(await timeline(db, done.id)).to.have.length(4); // a check writes nothing

    // 2. lab1 commits, then sends the flagged sample to re-extraction and sees its .reex id.
    await A.getByRole('button', { name: 'Commit 3 rows' }).click();
    await A.getByText(/3 DNA extractions written and waiting for review; 2 samples moved to In Testing\. 1 extraction outside the acceptance range/).waitFor();
    const flagged = A.getByRole('table', { name: 'Flagged DNA extractions' });
    await flagged.getByRole('button', { name: `Re-extract ${low.barcode}` }).click();
    await dialog(A, `Send ${low.barcode} to re-extraction`).getByRole('button', { name: 'Send to re-extraction' }).click();
    await flagged.getByText(reex, { exact: true }).waitFor();
    await A.getByText(`${low.barcode} sent to re-extraction: its new extraction goes by ${reex}; the sample stays In Testing`).first().waitFor();
    expect(await statusOf(db, low.id)).to.equal(SampleStatus.InTesting);
    for (const s of [done, kept]) expect(await statusOf(db, s.id)).to.equal(SampleStatus.InTesting);

    // 3. lab1 opens the review of this import: their own extractions are listed but they cannot approve them.
    const reviewLink = A.getByRole('link', { name: 'Review this import' });
    const reviewUrl = (await reviewLink.getAttribute('href'))!;
    expect(reviewUrl).to.match(/^\/lab_toolbox\/review\?job=\d+$/);
    await reviewLink.click();
    const ownList = A.getByRole('table', { name: 'Results in review' });
    await ownList.getByText(done.barcode).waitFor();
    expect(await A.getByRole('button', { name: /^Choose all you may approve/ }).isDisabled()).to.equal(true);
    await A.getByRole('checkbox', { name: `Choose ${done.barcode} DNA Extraction` }).check();
    await A.getByRole('checkbox', { name: `Choose ${kept.barcode} DNA Extraction` }).check();
    await A.getByText("2 of the chosen cannot be approved by you (you entered them, their plate's controls failed, their DNA extraction is outside the acceptance range, or their sample's DNA failed its check or waits for re-extraction).").waitFor();
    expect(await A.getByRole('button', { name: /^Approve/ }).isDisabled()).to.equal(true);

    // 4. lab2 opens the same review: the two in range are approvable; the re-extracted one is gone from the list and from the decisions.
    const flaggedAnswer = B.waitForResponse((r) => r.url().includes('/api/lab-toolbox/dna-extractions?') && r.url().includes('flagged=true') && r.ok());
    await B.goto(reviewUrl);
    const list = B.getByRole('table', { name: 'Results in review' });
    await list.getByText(done.barcode).waitFor();
    await list.getByText(kept.barcode).waitFor();
    await flaggedAnswer;
    await B.getByRole('button', { name: 'Choose all you may approve (2)' }).waitFor();
    expect(await list.getByText(low.barcode).count(), 'the re-extracted sample is not in review').to.equal(0);
    expect(await B.getByRole('checkbox', { name: `Choose ${low.barcode} DNA Extraction` }).count()).to.equal(0);
    expect(await B.getByRole('table', { name: 'Flagged DNA extractions' }).count(), 'nothing left to decide').to.equal(0);
    expect(await list.getByText('Outside the acceptance range: decide above').count()).to.equal(0);
    await B.getByRole('button', { name: 'Choose all you may approve (2)' }).click();
    await B.getByRole('button', { name: 'Approve 2' }).click();
    await signWithPassword(B, 2);
    await B.getByText('2 DNA extractions recorded: they report nothing, so their samples stay In Testing for their tests.').waitFor();
    await B.getByText('Nothing in review matches these filters.').waitFor();
    await B.getByText(new RegExp(`^run-77\\.csv imported by ${LEO} on .+: 2 Released · 1 Rejected$`)).waitFor();
    for (const s of [done, kept, low]) expect(await statusOf(db, s.id), s.barcode).to.equal(SampleStatus.InTesting);
    const extractions = await db.models.DnaExtraction.findAll({ where: { sampleId: [done.id, kept.id, low.id] }, include: [{ model: db.models.TestResult, as: 'testResult' }] });
    const extractionState = Object.fromEntries(extractions.map((e) => [e.sampleId, [e.testResult!.status, e.reextractionId]]));
    expect(extractionState).to.deep.equal({
      [done.id]: [TestResultStatus.Released, null], [kept.id]: [TestResultStatus.Released, null], [low.id]: [TestResultStatus.Rejected, reex],
    });
    await screenshot(B, 'lab-journey-extractions-approved');

    // 5. One sample to Completed through the product: lab1 imports its PROSTOX CFRT result, lab2 approves it, the worker delivers it.
    await A.goto('/lab_toolbox/cfrt_toxicity_import_tool');
    await A.locator('input[type=file]').setInputFiles({ name: 'tox-77.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${done.barcode},Low Risk\n`) });
    await A.getByRole('button', { name: 'Check the file' }).click();
    await A.getByText('Every row can be imported').waitFor();
    await A.getByRole('button', { name: 'Commit 1 row' }).click();
    await A.getByText(/1 result written and waiting for review; 0 samples moved to In Testing/).waitFor();
    const toxReviewUrl = (await A.getByRole('link', { name: 'Review this import' }).getAttribute('href'))!;
    await B.goto(toxReviewUrl);
    await B.getByRole('checkbox', { name: `Choose ${done.barcode} PROSTOX CFRT` }).check();
    await B.getByRole('button', { name: 'Approve 1' }).click();
    await signWithPassword(B, 1);
    await B.getByText("1 result released to the ordering clinics: the lab reports, the clinics' notices and the patients' result emails are on their way.").waitFor();
    const released = await db.models.TestResult.findOne({ where: { testId: done.testIds[0], status: TestResultStatus.Released } });
    expect(released, 'the released PROSTOX CFRT result').to.not.equal(null);
    const jobs = await Promise.all([`lab-report:${released!.id}`, `notify-result:${released!.id}`].map((key) => outboxJobSettled(t.ctx, key, { timeoutMs: 60_000 })));
    expect(jobs.map((j) => [j.name, j.status])).to.deep.equal([['render-pdf', JobStatus.Completed], ['notify-result', JobStatus.Completed]]);
    expect(await statusOf(db, done.id)).to.equal(SampleStatus.Completed);

    // 6. lab1 creates a plate and scans the three tubes in from the keyboard alone.
    const plate = freshPlateName();
    await A.goto('/lab_toolbox/storage_plate_import_tool');
    await A.getByRole('heading', { name: 'Storage plates' }).waitFor();
    await A.getByRole('textbox', { name: 'New plate' }).fill(plate);
    await A.keyboard.press('Enter');
    await A.getByRole('heading', { name: `Plate ${plate}` }).waitFor();
    await A.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('placeholder') === 'Sample id, then Enter');
    for (const id of [done.barcode, kept.barcode, reex]) {
      await A.keyboard.type(id);
      await A.keyboard.press('Enter');
    }
    const log = A.getByRole('table', { name: 'Scan log' });
    await log.getByText(`${done.barcode} is In Storage in ${plate} A1`).waitFor();
    await log.getByText(`${kept.barcode} is In Storage in ${plate} B1`).waitFor();
    await log.getByText(`${reex} (re-extraction) placed in ${plate} C1`).waitFor();
    await A.getByText('This session: 3 placed · 0 refused').waitFor();
    // Each scan's outcome is a word, readable in full (not clipped to "PL…" beside the long messages).
    const outcomes = await log.locator('.mantine-Badge-label').evaluateAll((nodes) =>
      nodes.map((n) => { const el = n as unknown as { textContent: string | null; scrollWidth: number; clientWidth: number }; return { word: el.textContent, clipped: el.scrollWidth > el.clientWidth }; }));
    expect(outcomes).to.deep.equal([1, 2, 3].map(() => ({ word: 'Placed', clipped: false })));
    expect(await statusOf(db, done.id)).to.equal(SampleStatus.InStorage);
    expect(await statusOf(db, kept.id)).to.equal(SampleStatus.InStorage);
    expect(await statusOf(db, low.id), 'a re-extraction tube on a plate does not move its sample').to.equal(SampleStatus.InTesting);

    // 7. The plate map shows each in its well; hovering a well shows its sample id.
    const map = A.getByRole('table', { name: `Plate ${plate}` });
    const wells: [string, string, string][] = [
      ['A1', done.barcode, 'In Storage (Completed when taken out)'],
      ['B1', kept.barcode, 'In Storage (In Testing when taken out)'],
      ['C1', reex, 're-extraction; the sample is In Testing'],
    ];
    for (const [well, id, words] of wells) {
      await map.getByRole('button', { name: `Well ${well}: ${id}, ${words}` }).hover();
      await A.getByRole('tooltip').getByText(`${well}: ${id} · ${words}`).waitFor();
    }
    await screenshot(A, 'lab-journey-plate-map');

    // 8. Only the Completed one can be discarded: the In Testing one's well says so; the Completed one is discarded after the confirmation.
    await map.getByRole('button', { name: `Well B1: ${kept.barcode}, In Storage (In Testing when taken out)` }).click();
    const keptWell = A.getByRole('region', { name: 'Well B1' });
    await keptWell.getByText('Only a Completed sample can be discarded.').waitFor();
    expect(await keptWell.getByRole('button', { name: 'Discard…' }).isDisabled()).to.equal(true);
    await map.getByRole('button', { name: `Well A1: ${done.barcode}, In Storage (Completed when taken out)` }).click();
    const doneWell = A.getByRole('region', { name: 'Well A1' });
    await doneWell.getByText(`Placed by ${LEO}`, { exact: false }).waitFor();
    await doneWell.getByRole('button', { name: 'Discard…' }).click();
    await doneWell.getByText(`Discard ${done.barcode}? The specimen is thrown away; this cannot be undone.`).waitFor();
    await doneWell.getByRole('button', { name: 'Discard', exact: true }).click();
    await A.getByText(`${done.barcode} discarded (taken out of ${plate} A1)`).waitFor();
    await map.getByRole('button', { name: 'Well A1, empty' }).waitFor();
    expect(await map.getByRole('button', { name: new RegExp(`^Well [A-H]\\d+: ${done.barcode},`) }).count(), 'the discarded sample is on no well').to.equal(0);
    await map.getByRole('button', { name: `Well B1: ${kept.barcode}, In Storage (In Testing when taken out)` }).waitFor();
    await map.getByRole('button', { name: `Well C1: ${reex}, re-extraction; the sample is In Testing` }).waitFor();
    // Where is it now? Nowhere on a plate; it was on A1 until its discard.
    await A.getByRole('textbox', { name: 'Find a sample' }).fill(done.barcode);
    await A.keyboard.press('Enter');
    await A.getByText('Not on a storage plate.').waitFor();
    await A.getByText(new RegExp(`Was on ${plate} A1 until .+ \\(discarded, ${LEO}\\)`)).waitFor();
    expect(await statusOf(db, done.id)).to.equal(SampleStatus.Discarded);
    await screenshot(A, 'lab-journey-discarded');

    // 9. The discarded sample's timeline: every step in order, with who did each. The product shows a timeline on the
    //    ordering account's patient page (no lab page shows one); the LIMS sample call gives lab users the same steps.
    const expected = [
      { status: SampleStatus.OrderPlaced, who: 'System', reason: null },
      { status: SampleStatus.PendingShipment, who: 'System', reason: null },
      { status: SampleStatus.InTransit, who: 'System', reason: null },
      { status: SampleStatus.InQueue, who: 'System', reason: null }, // the fixture: received
      { status: SampleStatus.InTesting, who: LEO, reason: null }, // the extraction run's commit
      { status: SampleStatus.Resulted, who: LENA, reason: null }, // the PROSTOX CFRT result approved
      { status: SampleStatus.Completed, who: 'System', reason: 'Result delivered' }, // the worker's notify-result
      { status: SampleStatus.InStorage, who: LEO, reason: null }, // scanned onto the plate
      { status: SampleStatus.Completed, who: LEO, reason: null }, // taken off the plate to be discarded
      { status: SampleStatus.Discarded, who: LEO, reason: null },
    ];
    const physician = await signedIn('provider', DEMO_USERS.physician.email); // page C
    const C = physician.page;
    await C.goto(`/provider-clinic/${done.accountId}/patient/${done.patientId}`);
    const card = C.getByRole('article', { name: `Sample ${done.barcode}` });
    await card.locator('.mantine-Timeline-itemTitle', { hasText: SampleStatus.Discarded }).waitFor();
    expect(await card.getByText(SampleStatus.Discarded, { exact: true }).count(), 'status badge and the last step').to.equal(2);
    expect(await timelineShown(C, done.barcode)).to.deep.equal(expected);
    await screenshot(C, 'lab-journey-timeline');

    const lims = await A.request.get(`/api/lims/sample/${done.barcode}`);
    expect(lims.status()).to.equal(200);
    const view = (await lims.json()) as { status: string; timeline: { to: string; reason: string | null; actor: { name: string } }[] };
    expect(view.status).to.equal(SampleStatus.Discarded);
    expect(view.timeline.map((e) => ({ status: e.to, who: e.actor.name, reason: e.reason }))).to.deep.equal(expected);
    // The re-extracted sample's own timeline records the decision, by lab1.
    expect((await timeline(db, low.id)).slice(-2)).to.deep.equal([SampleStatus.InTesting, SampleStatus.InTesting]);

    expect(lab1.errors, 'lab1').to.deep.equal([]);
    expect(lab2.errors, 'lab2').to.deep.equal([]);
    expect(physician.errors, 'physician').to.deep.equal([]);
  });
});

/**
 * The lab report carries what a CLIA inspector looks for (42 CFR 493.1291(c)): the performing
 * laboratory's name, address, CLIA number and director (configuration), the test method and its
 * limitations (the catalogue), the specimen type and source, and the dates collected, received
 * and reported. Read back from the PDF with pdftotext, on the real worker.
 */
import { expect } from 'chai';
import { formatDate, JobStatus, SPECIMEN_SOURCES, testMethodOf, TestName } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import type { RunningWorker } from '@platform/worker';
import { startTestWorker, testConfig } from '../support/server';
import { pdfPageCount } from '../support/pdf';
import { createClinic, createResult, currentReport, pdfText, releaseCorrection, runJob, type Clinic } from '../support/fixtures/reports';

const LAB = {
  LAB_NAME: 'Harbor Genomics Laboratory',
  LAB_ADDRESS: '400 Pier Road, Suite 2, Bayport, CA 94000',
  LAB_CLIA_NUMBER: '05D2345678',
  LAB_DIRECTOR: 'Ines Okafor, MD, PhD',
};

/** pdfkit wraps at hyphens and spaces: compare with the text's wrapped hyphens joined back. */
const unwrapped = (text: string) => text.replace(/- /g, '-');

describe('lab report: what a CLIA inspector looks for', function () {
  this.timeout(60_000);
  let ctx: AppContext;
  let worker: RunningWorker;
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(LAB), 'test');
    worker = await startTestWorker(LAB);
    clinic = await createClinic(ctx.db, 'clia');
  });
  after(async () => {
    await worker?.close();
    await closeContext(ctx);
  });

  async function reportText(resultId: number, sampleId: number): Promise<{ text: string; pages: number }> {
    const job = await runJob(ctx, 'render-pdf', { sampleId, documentType: 'lab_report', testResultId: resultId });
    expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
    const report = await currentReport(ctx.db, sampleId);
    return { text: pdfText(report!.content), pages: pdfPageCount(report!.content) };
  }

  it('names the performing laboratory, its CLIA number and director, the method and limitations, the specimen and its three dates', async () => {
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Intermediate Risk' });
    const { text, pages } = await reportText(r.resultId, r.sampleId);
    expect(text).to.include(`Performing laboratory: ${LAB.LAB_NAME}`);
    expect(text).to.include(LAB.LAB_ADDRESS);
    expect(text).to.include(`CLIA number ${LAB.LAB_CLIA_NUMBER}`);
    expect(text).to.include(`Laboratory director ${LAB.LAB_DIRECTOR}`);
    const method = testMethodOf(TestName.ProstoxUltra);
    expect(unwrapped(text)).to.include(`Method ${method.method}`);
    expect(unwrapped(text)).to.include(`Limitations: ${method.limitations}`);
    expect(text).to.match(/Specimen type\s+Buccal Swab/);
    expect(text).to.include(`Specimen source ${SPECIMEN_SOURCES['Buccal Swab']}`);
    // On the lab's clock (the tests' LAB_TIME_ZONE is America/New_York): 15:00 UTC is 11:00 AM EDT.
    expect(text).to.match(/Collected\s+10\/02\/2026 11:00 AM EDT/);
    expect(text).to.match(/Received at the lab\s+10\/06\/2026 11:00 AM EDT/);
    expect(text).to.match(new RegExp(`Reported ${formatDate(new Date(), ctx.config.labTimeZone)} \\d{1,2}:\\d{2} [AP]M E[SD]T`));
    expect(text).to.include('Result: Intermediate Risk');
    expect(unwrapped(text)).to.include('Interpretation The patient has an intermediate genetic risk');
    expect(pages, 'still a one-page report').to.equal(1);
  });

  it('prints the method of the test reported: a COVID-19 Rapid result names the antigen assay, not the PCR', async () => {
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: TestName.CovidRapid, value: 'NOT DETECTED' });
    const { text } = await reportText(r.resultId, r.sampleId);
    expect(unwrapped(text)).to.include(testMethodOf(TestName.CovidRapid).method);
    expect(unwrapped(text)).to.include(testMethodOf(TestName.CovidRapid).limitations);
    expect(unwrapped(text)).to.not.include(testMethodOf(TestName.CovidPcr).method);
    expect(text).to.include('Result: Not detected');
  });

  it('a corrected report keeps the laboratory and dates, and says "Corrected" with the reason', async () => {
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Low-Average Risk' });
    await reportText(r.resultId, r.sampleId);
    const correctionId = await releaseCorrection(ctx.db, r, 'High Risk', 'Wrong plate column read');
    const { text } = await reportText(correctionId, r.sampleId);
    expect(text).to.include('CORRECTED REPORT');
    expect(text).to.include('Corrected.');
    expect(text).to.include('Wrong plate column read');
    expect(text).to.include(`CLIA number ${LAB.LAB_CLIA_NUMBER}`);
    expect(text).to.match(/Collected\s+10\/02\/2026/);
  });
});

/**
 * Two jobs rendering the same report at the same moment (a release queues render-pdf, and send-hl7
 * renders the report it sends when render-pdf has not yet stored it): both finish, one document.
 */
import { expect } from 'chai';
import { DocumentType } from '@platform/domain';
import { createMailer } from '@platform/server';
import { PROCESSORS } from '@platform/worker/processors/index';
import { buildTestApp, type TestApp } from '../support/http';
import { createResult } from '../support/fixtures/reports';

describe('worker: render-pdf', function () {
  this.timeout(30_000);
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => t?.close());

  it('stores one report when two jobs render it at the same moment, and both finish', async () => {
    const riverside = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!;
    const physician = (await t.ctx.db.models.Physician.findOne({ where: { accountId: riverside.id } }))!;
    const r = await createResult(t.ctx.db, { accountId: riverside.id, physicianId: physician.id });
    const deps = { config: t.ctx.config, db: t.ctx.db, logger: t.ctx.logger, relay: t.ctx.relay, mailer: createMailer(t.ctx.config) };
    const tools = { jobRowId: 0, attempt: 1, progress: async () => undefined };
    const payload = { sampleId: r.sampleId, documentType: DocumentType.LabReport, testResultId: r.resultId };
    const [a, b] = await Promise.all([PROCESSORS['render-pdf'](payload, deps, tools), PROCESSORS['render-pdf'](payload, deps, tools)]);
    expect((a as { documentId: number }).documentId).to.equal((b as { documentId: number }).documentId);
    expect(await t.ctx.db.models.SampleDocument.count({ where: { sampleId: r.sampleId, type: DocumentType.LabReport } })).to.equal(1);
  });
});

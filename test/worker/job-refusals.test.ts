/**
 * A refusal of the lab's rules inside a job (here a status change the lifecycle forbids) does not
 * get better on retry: the job is Failed at its first attempt, with the rule's own words.
 */
import { expect } from 'chai';
import { JobStatus, SampleStatus } from '@platform/domain';
import { closeServerContext, createServerContext, moveSample, type ServerContext, systemCaller } from '@platform/server';
import { startWorker, type RunningWorker } from '@platform/worker';
import { PROCESSORS, type ProcessorRegistry } from '@platform/worker/processors/index';
import { testConfig } from '../support/server';
import { createClinic, createResult, runJob, type Clinic } from '../support/fixtures/reports';

describe('a domain refusal inside a job', function () {
  this.timeout(60_000);
  let ctx: ServerContext;
  let worker: RunningWorker;
  let clinic: Clinic;

  // The real registry, with notify-result replaced by one that asks for a transition the lifecycle refuses.
  const processors: ProcessorRegistry = {
    ...PROCESSORS,
    'notify-result': async ({ testResultId }, deps) => {
      await deps.db.sequelize.transaction(async (transaction) => {
        const result = (await deps.db.models.TestResult.findByPk(testResultId, { transaction }))!;
        const test = (await deps.db.models.Test.findByPk(result.testId, { transaction }))!;
        const sample = (await deps.db.models.Sample.findByPk(test.sampleId, { transaction }))!;
        await moveSample(deps.db, transaction, sample, { to: SampleStatus.OrderPlaced, by: systemCaller() });
      });
    },
  };

  before(async () => {
    ctx = createServerContext(testConfig(), 'test');
    worker = await startWorker(testConfig(), { processors });
    clinic = await createClinic(ctx.db, 'refusals');
  });
  after(async () => {
    await worker?.close();
    await closeServerContext(ctx);
  });

  it('is Failed at the first attempt, with the lifecycle message, and the sample keeps its status', async () => {
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
    const job = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
    expect(job.status).to.equal(JobStatus.Failed);
    expect(job.attempts, 'attempts made').to.equal(1);
    expect(job.error).to.equal(`A sample cannot go from ${SampleStatus.Resulted} to ${SampleStatus.OrderPlaced}`);
    expect((await ctx.db.models.Sample.findByPk(r.sampleId))!.status).to.equal(SampleStatus.Resulted);
  });
});

/** What the review lists and the review commands share: the joins that reach a result's sample and account. */
import type { WhereOptions } from 'sequelize';
import type { ServerContext } from '../context';

export type ReviewCtx = Pick<ServerContext, 'db' | 'relay'>;
export type Models = ServerContext['db']['models'];

export const includeTestSampleAccount = (m: Models, testWhere: WhereOptions = {}, sampleWhere: WhereOptions = {}) => ({
  model: m.Test,
  as: 'test',
  required: true,
  where: testWhere,
  attributes: ['id', 'name', 'sampleId'],
  include: [{
    model: m.Sample,
    as: 'sample',
    required: true,
    where: sampleWhere,
    attributes: ['id', 'barcode', 'status', 'accountId'],
    include: [
      { model: m.Patient, as: 'patient', attributes: ['firstName', 'lastName', 'studyId'] },
      { model: m.Account, as: 'account', attributes: ['name'] },
    ],
  }],
});

/** A send-email-batch job's payload: 1 to EMAIL_BATCH_MAX distinct email ids, nothing else. */
import { expect } from 'chai';
import { EMAIL_BATCH_MAX, JOB_PAYLOAD_SCHEMAS } from '@platform/domain';

const check = (payload: unknown) => JOB_PAYLOAD_SCHEMAS['send-email-batch'].validate(payload).error?.message ?? null;
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('send-email-batch payload', () => {
  it('takes from one to EMAIL_BATCH_MAX distinct email ids', () => {
    expect(check({ emailIds: [7] })).to.equal(null);
    expect(check({ emailIds: ids(EMAIL_BATCH_MAX) })).to.equal(null);
  });

  it('refuses none, more than EMAIL_BATCH_MAX, an id twice, a bad id or another field, naming the problem', () => {
    expect(check({ emailIds: [] })).to.match(/emailIds.*at least 1/);
    expect(check({ emailIds: ids(EMAIL_BATCH_MAX + 1) })).to.match(new RegExp(`emailIds.*less than or equal to ${EMAIL_BATCH_MAX}`));
    expect(check({ emailIds: [3, 3] })).to.match(/duplicate/);
    expect(check({ emailIds: [0] })).to.match(/positive/);
    expect(check({ emailIds: [1], emailId: 1 })).to.match(/emailId.*not allowed/);
    expect(check({})).to.match(/emailIds.*required/);
  });
});

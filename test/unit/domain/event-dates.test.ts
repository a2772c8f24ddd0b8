import { expect } from 'chai';
import { intakeReceiveBody, labSampleCreateBody, validate } from '@platform/domain';

describe('dates and times a client sends', () => {
  const fieldsOf = (result: ReturnType<typeof validate>) => ('fields' in result ? result.fields : []);

  for (const year of ['0000', '-010000', '1999']) {
    it(`refuses a receipt time in ${year}, which PostgreSQL could not store or the lab never had`, () => {
      const result = validate(intakeReceiveBody, { barcode: '41000000000001', condition: 'acceptable', receivedAt: `${year}-01-01T00:00:00Z` });
      expect(fieldsOf(result)).to.deep.equal([{ field: 'receivedAt', message: 'Receipt time must be after 01/01/2000' }]);
    });
  }

  it('accepts a receipt time in this century', () => {
    const result = validate(intakeReceiveBody, { barcode: '41000000000001', condition: 'acceptable', receivedAt: '2026-11-20T09:30:00Z' });
    expect(fieldsOf(result)).to.deep.equal([]);
  });

  it('refuses a collection time before 2000 on a lab-ordered sample', () => {
    const result = validate(labSampleCreateBody, {
      barcode: '41000000000099', sampleType: 'Saliva', patient: { firstName: 'A', lastName: 'B', dateOfBirth: '1980-01-01' }, collectedAt: '0000-01-01T00:00:00Z',
    });
    expect(fieldsOf(result).map((f) => f.message)).to.include('Collection time must be after 01/01/2000');
  });
});

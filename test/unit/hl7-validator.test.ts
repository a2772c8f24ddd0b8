/** The hl7v2 checker of test/support/hl7-validator.ts finds what it claims to find. */
import { expect } from 'chai';
import { hl7v2Problems } from '../support/hl7-validator';

const seg = (...lines: string[]) => lines.join('\r');
const MSH_ACK = 'MSH|^~\\&|EHR|CLINIC|LAB|LAB|20261128101530+0000||ACK^R01^ACK|A1|P|2.5.1';

describe('hl7v2 checker (the independent library the HL7 tests use)', () => {
  it('finds nothing wrong with a plain ACK', () => {
    expect(hl7v2Problems(seg(MSH_ACK, 'MSA|AA|ORU1'))).to.deep.equal([]);
  });

  it('finds a required field left empty (MSA-2)', () => {
    expect(hl7v2Problems(seg(MSH_ACK, 'MSA|AA'))).to.deep.equal(['MSA-2 (Message Control ID): required field empty']);
  });

  it('finds a segment out of place and a required segment missing', () => {
    expect(hl7v2Problems(seg(MSH_ACK, 'ERR||||E', 'MSA|AA|ORU1'))).to.include('ACK/MSA: required segment missing');
    const oruWithoutObr = seg('MSH|^~\\&|LAB|LAB|EHR|CLINIC|20261128101530+0000||ORU^R01^ORU_R01|O1|P|2.5.1', 'PID|1||1^^^LAB^PI||Doe^Jane', 'OBX|1|ST|X^Y^L||v||||||F');
    expect(hl7v2Problems(oruWithoutObr).join('\n')).to.match(/OBR: required segment missing|not allowed there/);
  });

  it('finds a value too long and a required component empty', () => {
    const longText = 'x'.repeat(81);
    expect(hl7v2Problems(seg(MSH_ACK, `MSA|AA|ORU1|${longText}`))).to.deep.equal(['MSA-3 (Text Message): 81 characters, at most 80']);
    const edWithoutData = seg('MSH|^~\\&|LAB|LAB|EHR|CLINIC|20261128101530+0000||ORU^R01^ORU_R01|O1|P|2.5.1', 'PID|1||1^^^LAB^PI||Doe^Jane', 'OBR|1|||X^Y^L', 'OBX|1|ED|X^Y^L||^application^pdf^Base64||||||F');
    expect(hl7v2Problems(edWithoutData).join('\n')).to.contain('Data');
  });

  it('throws on a value of the wrong data type (a date of birth that is no date)', () => {
    const badDate = seg('MSH|^~\\&|LAB|LAB|EHR|CLINIC|20261128101530+0000||ORU^R01^ORU_R01|O1|P|2.5.1', 'PID|1||1^^^LAB^PI||Doe^Jane||notadate');
    expect(() => hl7v2Problems(badDate)).to.throw(/wrong data type/);
  });

  it("takes the ELR guide's component lengths for an order number only when MSH-21 names the ELR profile", () => {
    const oru = (msh21: string) => seg(
      `MSH|^~\\&|LAB|LAB|DOH|DOH|20261128101530+0000||ORU^R01^ORU_R01|O1|P|2.5.1|||||||||${msh21}`,
      'PID|1||1^^^LAB^PI||Doe^Jane', 'ORC|RE|123456^Prostox Platform^05D1234567^CLIA', 'OBR|1|||X^Y^L',
    );
    expect(hl7v2Problems(oru(''))).to.deep.equal(['ORC-2 (Placer Order Number): 39 characters, at most 22']);
    expect(hl7v2Problems(oru('PHLabReport-NoAck^^2.16.840.1.113883.9.11^ISO'))).to.deep.equal([]);
    // The components are still checked: EI-4 (universal id type) is 6 characters at most.
    const longType = oru('PHLabReport-NoAck^^2.16.840.1.113883.9.11^ISO').replace('^CLIA', '^CLIA-NUMBER');
    expect(hl7v2Problems(longType).join('\n')).to.match(/ORC-2\.4 .*at most 6/);
  });
});

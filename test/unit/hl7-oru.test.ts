/**
 * The ORU^R01 (HL7 v2.5.1) of a result: every segment checked field by field on the wire text, the
 * codes those of domain's code table, special characters escaped and read back, and every message
 * parsed and checked by the independent hl7v2 library (test/support/hl7-validator.ts).
 */
import { expect } from 'chai';
import { Hl7Message, type Hl7Segment } from '@medplum/core';
import {
  COVID_PCR_RESULT_TEXT, COVID_RESULT_CODES, CovidPcrResult, KRAS_GENOTYPE_CODES, RISK_RESULT_CODES, RiskLevel, TestName, resultInterpretationText,
} from '@platform/domain';
import { buildResultOru, unescapeHl7, type ResultOruInput } from '../../server/src/hl7';
import { expectValidHl7 } from '../support/hl7-validator';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SPECIAL_NAME = "O'Brien|Smith^Jr & Co";

function covidInput(overrides: Partial<ResultOruInput> = {}): ResultOruInput {
  return {
    controlId: 'ORU-42-1',
    createdAt: new Date('2026-11-22T12:00:05.123Z'),
    lab: {
      application: 'PLATFORM-LIS',
      name: 'Example Genomics Lab',
      cliaNumber: '05D2187035',
      address: { street: '10 Science Park Rd', city: 'San Diego', state: 'CA', postalCode: '92121', country: 'USA' },
      director: { familyName: 'Director', givenName: 'Dana' },
    },
    receiver: { application: 'EPIC', facility: 'NORTH CLINIC' },
    patient: {
      identifiers: [
        { value: 'MRN-0042', assigningAuthority: { namespaceId: 'NORTH CLINIC' }, typeCode: 'MR' },
        { value: '42', assigningAuthority: { namespaceId: 'PLATFORM-LIS', universalId: '05D2187035', universalIdType: 'CLIA' }, typeCode: 'PI' },
      ],
      name: { familyName: 'Rivera', givenName: 'Ana' },
      dateOfBirth: '1958-07-14',
      sex: 'F',
      address: { street: '12 Oak St', otherDesignation: 'Apt 3', city: 'Austin', state: 'TX', postalCode: '78701', country: 'USA' },
    },
    order: {
      placerOrderNumber: '1001',
      fillerOrderNumber: 'CV00012345',
      testName: TestName.CovidPcr,
      orderingProvider: { familyName: 'House', givenName: 'Greg', npi: '1234567893' },
      collectedAt: new Date('2026-11-20T08:15:00Z'),
      receivedAt: new Date('2026-11-21T09:30:00Z'),
      resultAt: new Date('2026-11-22T11:59:00Z'),
    },
    resultStatus: 'F',
    values: [{ testName: TestName.CovidPcr, value: CovidPcrResult.Detected }],
    reportPdf: PDF,
    ...overrides,
  };
}

/** The message as a receiver reads it: its wire text parsed again. */
function wire(input: ResultOruInput): { text: string; message: Hl7Message } {
  const text = buildResultOru(input).toString();
  expectValidHl7(text);
  return { text, message: Hl7Message.parse(text) };
}

const fieldText = (s: Hl7Segment | undefined, n: number) => s?.getField(n)?.toString() ?? '';
const names = (m: Hl7Message) => m.segments.map((s) => s.name);
const obxs = (m: Hl7Message) => m.getAllSegments('OBX');

const LAB_XON = 'Example Genomics Lab^L^^^^CLIA&2.16.840.1.113883.4.7&ISO^XX^^^05D2187035';
const LAB_XAD = '10 Science Park Rd^^San Diego^CA^92121^USA^B';
const PROVIDER_XCN = '1234567893^House^Greg^^^^^^NPI&2.16.840.1.113883.4.6&ISO^L^^^NPI';
const COVID_PCR_CE = '94500-6^SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection^LN^COVID-19-PCR^COVID-19 PCR^L';

describe('HL7 ORU^R01 of a result (server/src/hl7/oru.ts)', () => {
  describe('a released COVID-19 PCR result, DETECTED, with its report', () => {
    let text = '';
    let message: Hl7Message;
    before(() => ({ text, message } = wire(covidInput())));

    it('has the ORU_R01 segments in order: MSH PID ORC OBR, the OBX with its NTE, the report OBX', () => {
      expect(names(message)).to.deep.equal(['MSH', 'PID', 'ORC', 'OBR', 'OBX', 'NTE', 'OBX']);
      expect(text.split('\r')).to.have.length(7);
    });

    it('MSH: the lab with its CLIA number sends to the clinic, ORU^R01^ORU_R01, 2.5.1, a UTC timestamp with offset', () => {
      const msh = message.getSegment('MSH');
      expect(text.startsWith('MSH|^~\\&|')).to.equal(true);
      expect(fieldText(msh, 3)).to.equal('PLATFORM-LIS');
      expect(fieldText(msh, 4)).to.equal('Example Genomics Lab^05D2187035^CLIA');
      expect(fieldText(msh, 5)).to.equal('EPIC');
      expect(fieldText(msh, 6)).to.equal('NORTH CLINIC');
      expect(fieldText(msh, 7)).to.equal('20261122120005+0000');
      expect(fieldText(msh, 9)).to.equal('ORU^R01^ORU_R01');
      expect(fieldText(msh, 10)).to.equal('ORU-42-1');
      expect(fieldText(msh, 11)).to.equal('P');
      expect(fieldText(msh, 12)).to.equal('2.5.1');
      expect(fieldText(msh, 18)).to.equal('UNICODE UTF-8');
    });

    it('PID: identifiers with their assigning authorities, name, date of birth, sex, address', () => {
      const pid = message.getSegment('PID');
      expect(fieldText(pid, 1)).to.equal('1');
      expect(fieldText(pid, 3)).to.equal('MRN-0042^^^NORTH CLINIC^MR~42^^^PLATFORM-LIS&05D2187035&CLIA^PI');
      expect(fieldText(pid, 5)).to.equal('Rivera^Ana^^^^^L');
      expect(fieldText(pid, 7)).to.equal('19580714');
      expect(fieldText(pid, 8)).to.equal('F');
      expect(fieldText(pid, 11)).to.equal('12 Oak St^Apt 3^Austin^TX^78701^USA^H');
    });

    it('ORC: observations to follow, placer = the order id, filler = the barcode (EI-1 alone: 22 characters in 2.5.1), the ordering provider with NPI', () => {
      const orc = message.getSegment('ORC');
      expect(fieldText(orc, 1)).to.equal('RE');
      expect(fieldText(orc, 2)).to.equal('1001');
      expect(fieldText(orc, 3)).to.equal('CV00012345');
      expect(fieldText(orc, 12)).to.equal(PROVIDER_XCN);
    });

    it('OBR: order numbers, the test in LOINC then the lab code, collection, receipt and result times, status F', () => {
      const obr = message.getSegment('OBR');
      expect(fieldText(obr, 1)).to.equal('1');
      expect(fieldText(obr, 2)).to.equal('1001');
      expect(fieldText(obr, 3)).to.equal('CV00012345');
      expect(fieldText(obr, 4)).to.equal(COVID_PCR_CE);
      expect(fieldText(obr, 7)).to.equal('20261120081500+0000');
      expect(fieldText(obr, 14)).to.equal('20261121093000+0000');
      expect(fieldText(obr, 16)).to.equal(PROVIDER_XCN);
      expect(fieldText(obr, 22)).to.equal('20261122115900+0000');
      expect(fieldText(obr, 25)).to.equal('F');
    });

    it('OBX 1: CWE with the SNOMED CT code of the table, the abnormal flag DET, status F, the performing lab', () => {
      const obx = obxs(message)[0];
      const detected = COVID_RESULT_CODES[CovidPcrResult.Detected];
      expect(fieldText(obx, 1)).to.equal('1');
      expect(fieldText(obx, 2)).to.equal('CWE');
      expect(fieldText(obx, 3)).to.equal(COVID_PCR_CE);
      expect(fieldText(obx, 5)).to.equal(`260373001^Detected^SCT^^^^^^${COVID_PCR_RESULT_TEXT[CovidPcrResult.Detected]}`);
      expect(obx.getComponent(5, 1)).to.equal(detected.code.code);
      expect(fieldText(obx, 6)).to.equal('');
      expect(fieldText(obx, 8)).to.equal(detected.interpretation?.code).and.to.equal('DET');
      expect(fieldText(obx, 11)).to.equal('F');
      expect(fieldText(obx, 14)).to.equal('20261120081500+0000');
      expect(fieldText(obx, 19)).to.equal('20261122115900+0000');
      expect(fieldText(obx, 23)).to.equal(LAB_XON);
      expect(fieldText(obx, 24)).to.equal(LAB_XAD);
      expect(fieldText(obx, 25)).to.equal('^Director^Dana');
    });

    it('NTE after the OBX: the interpretation the report prints, from the lab', () => {
      const nte = message.getSegment('NTE');
      expect(fieldText(nte, 1)).to.equal('1');
      expect(fieldText(nte, 2)).to.equal('L');
      const interpretation = resultInterpretationText(TestName.CovidPcr, CovidPcrResult.Detected);
      expect(interpretation).to.be.a('string').and.not.equal('');
      expect(unescapeHl7(fieldText(nte, 3))).to.equal(interpretation);
    });

    it('OBX 2: the report PDF as ED (^AP^PDF^Base64^..., the 2.5.1 tables 0191 / 0291 / 0299), the LOINC code of a laboratory report', () => {
      const ed = obxs(message)[1];
      expect(fieldText(ed, 1)).to.equal('2');
      expect(fieldText(ed, 2)).to.equal('ED');
      expect(fieldText(ed, 3)).to.equal('11502-2^Laboratory report^LN');
      expect(fieldText(ed, 5)).to.equal(`^AP^PDF^Base64^${PDF.toString('base64')}`);
      expect(Buffer.from(ed.getComponent(5, 5), 'base64').equals(PDF)).to.equal(true);
      expect(fieldText(ed, 11)).to.equal('F');
      expect(fieldText(ed, 23)).to.equal(LAB_XON);
    });
  });

  it('escapes separators in a patient name and both libraries read the name back', () => {
    const input = covidInput();
    const { text, message } = wire({ ...input, patient: { ...input.patient, name: { familyName: SPECIAL_NAME, givenName: 'Mary~Ann\\B' } } });
    expect(text).to.contain("|O'Brien\\F\\Smith\\S\\Jr \\T\\ Co^Mary\\R\\Ann\\E\\B^^^^^L|");
    const pid = message.getSegment('PID');
    expect(unescapeHl7(pid!.getComponent(5, 1))).to.equal(SPECIAL_NAME);
    expect(unescapeHl7(pid!.getComponent(5, 2))).to.equal('Mary~Ann\\B');
    const parsed = expectValidHl7(text);
    expect(parsed.getSegment('PID')!.field(5).getValue(1)).to.equal(SPECIAL_NAME);
    expect(parsed.getSegment('PID')!.field(5).getValue(2)).to.equal('Mary~Ann\\B');
  });

  it('sends a line break in a text as hexadecimal data (\\X0A\\), never as a segment end', () => {
    const { text, message } = wire(covidInput({ controlId: 'ORU-42-4', resultStatus: 'C', correctionReason: 'Sample swapped\nwith another' }));
    expect(text).to.contain('|Corrected result: Sample swapped\\X0A\\with another');
    expect(unescapeHl7(fieldText(message.getAllSegments('NTE')[0], 3))).to.equal('Corrected result: Sample swapped\nwith another');
  });

  it('a correction: status C on OBR-25 and OBX-11, the reason as an NTE before the interpretation', () => {
    const { message } = wire(covidInput({ controlId: 'ORU-42-2', resultStatus: 'C', correctionReason: 'Wrong sample | entered first' }));
    expect(fieldText(message.getSegment('OBR'), 25)).to.equal('C');
    expect(obxs(message).map((o) => fieldText(o, 11))).to.deep.equal(['C', 'C']);
    const notes = message.getAllSegments('NTE').map((n) => unescapeHl7(fieldText(n, 3)));
    expect(notes[0]).to.equal('Corrected result: Wrong sample | entered first');
    expect(notes[1]).to.equal(resultInterpretationText(TestName.CovidPcr, CovidPcrResult.Detected));
  });

  it('a rejection (sample never received): status X, no value, the reason and its interpretation as NTEs', () => {
    const { message } = wire(covidInput({ controlId: 'ORU-42-3', resultStatus: 'X', values: [{ testName: TestName.CovidPcr, value: CovidPcrResult.Rejected }], reportPdf: null }));
    expect(names(message)).to.deep.equal(['MSH', 'PID', 'ORC', 'OBR', 'OBX', 'NTE', 'NTE']);
    const obx = obxs(message)[0];
    expect(fieldText(message.getSegment('OBR'), 25)).to.equal('X');
    expect(fieldText(obx, 2)).to.equal('');
    expect(fieldText(obx, 5)).to.equal('');
    expect(fieldText(obx, 11)).to.equal('X');
    const notes = message.getAllSegments('NTE').map((n) => unescapeHl7(fieldText(n, 3)));
    expect(notes).to.deep.equal([COVID_PCR_RESULT_TEXT[CovidPcrResult.Rejected], resultInterpretationText(TestName.CovidPcr, CovidPcrResult.Rejected)]);
    expect(message.getAllSegments('NTE').map((n) => fieldText(n, 1))).to.deep.equal(['1', '2']);
  });

  it("a risk test: OBX-3 the lab's own test code (L), OBX-5 the lab's risk code as CWE, no abnormal flag", () => {
    const { message } = wire(covidInput({
      controlId: 'ORU-43-1',
      order: { ...covidInput().order, testName: TestName.ProstoxUltra },
      values: [{ testName: TestName.ProstoxUltra, value: RiskLevel.High }],
    }));
    const obx = obxs(message)[0];
    const high = RISK_RESULT_CODES[RiskLevel.High].code;
    expect(fieldText(message.getSegment('OBR'), 4)).to.equal('PROSTOX-ULTRA^PROSTOX ultra^L');
    expect(fieldText(obx, 2)).to.equal('CWE');
    expect(fieldText(obx, 3)).to.equal('PROSTOX-ULTRA^PROSTOX ultra^L');
    expect(fieldText(obx, 5)).to.equal(`${high.code}^${high.display}^L^^^^^^${RiskLevel.High}`);
    expect(fieldText(obx, 8)).to.equal('');
    expect(unescapeHl7(fieldText(message.getSegment('NTE'), 3))).to.equal(resultInterpretationText(TestName.ProstoxUltra, RiskLevel.High));
  });

  it('the KRAS test reports its genotype under the observation code KRAS-GENOTYPE', () => {
    const genotype = Object.keys(KRAS_GENOTYPE_CODES)[0] as keyof typeof KRAS_GENOTYPE_CODES;
    const { message } = wire(covidInput({
      controlId: 'ORU-44-1', order: { ...covidInput().order, testName: TestName.Kras }, values: [{ testName: TestName.Kras, value: genotype }],
    }));
    expect(fieldText(message.getSegment('OBR'), 4)).to.equal('KRAS^KRAS^L');
    expect(fieldText(obxs(message)[0], 3)).to.equal('KRAS-GENOTYPE^KRAS genotype^L');
    expect(obxs(message)[0].getComponent(5, 1)).to.equal(KRAS_GENOTYPE_CODES[genotype].code.code);
  });

  it('an open value is ST (a lineage), a number NM with its units, a test the table lacks sent as text', () => {
    const { message } = wire(covidInput({
      controlId: 'ORU-45-1',
      values: [
        { testName: TestName.SarsCov2Lineage, value: 'JN.1' },
        { testName: 'Ct value', value: '23.4', units: 'cycles' },
      ],
      reportPdf: null,
    }));
    const [lineage, ct] = obxs(message);
    expect(fieldText(lineage, 2)).to.equal('ST');
    expect(fieldText(lineage, 3)).to.equal('100157-7^SARS-CoV-2 (COVID-19) lineage [Type] in Specimen by Sequencing^LN^SARS-COV-2-LINEAGE^SARS-CoV-2 lineage identifier^L');
    expect(fieldText(lineage, 5)).to.equal('JN.1');
    expect(fieldText(ct, 1)).to.equal('2');
    expect(fieldText(ct, 2)).to.equal('NM');
    expect(fieldText(ct, 3)).to.equal('^Ct value');
    expect(fieldText(ct, 5)).to.equal('23.4');
    expect(fieldText(ct, 6)).to.equal('cycles');
  });

  it('leaves out what is unknown: no NPI, no date of birth, sex or address', () => {
    const input = covidInput();
    const { message } = wire({
      ...input,
      controlId: 'ORU-46-1',
      patient: { ...input.patient, dateOfBirth: null, sex: null, address: null },
      order: { ...input.order, orderingProvider: { familyName: 'House', givenName: 'Greg', npi: null }, receivedAt: null },
    });
    const pid = message.getSegment('PID');
    expect([7, 8, 11].map((n) => fieldText(pid, n))).to.deep.equal(['', '', '']);
    expect(fieldText(message.getSegment('OBR'), 16)).to.equal('^House^Greg^^^^^^^L');
    expect(fieldText(message.getSegment('OBR'), 14)).to.equal('');
  });

  describe('a report to public health (ELR, PHLIP profile)', () => {
    const elr = (over: Partial<NonNullable<ResultOruInput['elr']>> = {}): NonNullable<ResultOruInput['elr']> => ({
      acknowledged: false,
      software: { vendor: 'Prostox Platform', version: '1.4.2', product: 'Prostox Platform', installedOn: '2026-11-01' },
      orderingFacility: { name: 'North Clinic', address: { street: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'USA' }, phone: '512-555-0100' },
      orderingProviderPhone: null,
      patientPhone: '+44 20 7946 0958',
      specimen: { type: null, text: 'Buccal Swab' },
      ...over,
    });

    it('a rejection to a batch file: NoAck profile, status X, the ordering facility, no PDF, the specimen as text, a foreign phone as written', () => {
      const { message } = wire(covidInput({
        controlId: 'ELR-1', resultStatus: 'X', values: [{ testName: TestName.CovidPcr, value: null }], rejectionReason: 'Leaked in transit', elr: elr(),
      }));
      expect(names(message)).to.deep.equal(['MSH', 'SFT', 'PID', 'ORC', 'OBR', 'OBX', 'NTE', 'SPM']);
      const msh = message.getSegment('MSH');
      expect([15, 16, 17, 21].map((n) => fieldText(msh, n))).to.deep.equal(['NE', 'NE', 'USA', 'PHLabReport-NoAck^^2.16.840.1.113883.9.11^ISO']);
      expect(fieldText(message.getSegment('SFT'), 6)).to.equal('20261101');
      expect(fieldText(message.getSegment('PID'), 13)).to.equal('+44 20 7946 0958^PRN^PH');
      const orc = message.getSegment('ORC');
      // The provider has no phone of their own: the callback number is the facility's.
      expect([14, 21, 22, 23].map((n) => fieldText(orc, n))).to.deep.equal([
        '^WPN^PH^^1^512^5550100', 'North Clinic', '1 Main St^^Austin^TX^78701^USA^B', '^WPN^PH^^1^512^5550100',
      ]);
      expect(fieldText(message.getSegment('OBR'), 25)).to.equal('X');
      expect(fieldText(obxs(message)[0], 11)).to.equal('X');
      expect(fieldText(obxs(message)[0], 8)).to.equal('');
      expect(fieldText(message.getSegment('SPM'), 4)).to.equal('^^^^^^^^Buccal Swab');
    });
  });
});

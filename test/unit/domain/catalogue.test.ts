import { expect } from 'chai';
import {
  canOrderIn,
  catalogueEntry,
  COVID_PCR_RESULTS,
  isTestName,
  isValidResultValue,
  KRAS_GENOTYPES,
  mirakindDonationCents,
  patientPriceCents,
  PORTALS,
  PROSTOX_BOTH,
  researchTests,
  resultInterpretation,
  RISK_LEVELS,
  TEST_CATALOGUE,
  TEST_NAMES,
  testsOrderableIn,
  TWO_LEVEL_RISKS,
  type Portal,
  type TestName,
} from '@platform/domain';

const CLINICAL = 'Clinical Portal';
const RESEARCH = 'Research Portal';
const PATIENT = 'Patient Portal';
const LAB = 'Lab Toolbox';

describe('domain/catalogue', () => {
  it('has one entry per test name, keyed by its own name', () => {
    expect(Object.keys(TEST_CATALOGUE)).to.deep.equal(TEST_NAMES);
    for (const name of TEST_NAMES) expect(catalogueEntry(name).name).to.equal(name);
  });

  it('throws for an unknown test', () => {
    expect(() => catalogueEntry('PROSTOX' as TestName)).to.throw(RangeError, 'Unknown test: PROSTOX');
    expect(isTestName('PROSTOX ultra')).to.equal(true);
    expect(isTestName('prostox ultra')).to.equal(false);
  });

  describe('portals (SPEC §3 "Orderable tests and allowed portals")', () => {
    const expected: Record<TestName, Portal[]> = {
      'PROSTOX ultra': [CLINICAL, PATIENT],
      'PROSTOX CFRT': [CLINICAL, PATIENT],
      'PROSTOX Research': [CLINICAL],
      KRAS: [CLINICAL, PATIENT],
      PREVIOTOX: [CLINICAL, RESEARCH, PATIENT],
      'HEAD AND NECK': [RESEARCH],
      SARCOMA: [RESEARCH],
      'RECTAL CANCER': [RESEARCH],
      'BREAST TOX': [RESEARCH],
      'COVID-19 PCR': [],
      'COVID-19 Rapid': [],
      'DNA Extraction': [],
      IMUDX: [],
      'SARS-CoV-2 lineage identifier': [],
    };
    for (const name of TEST_NAMES) {
      it(`${name}: ${expected[name].join(', ') || 'no portal'}`, () => {
        expect([...catalogueEntry(name).portals].sort()).to.deep.equal([...expected[name]].sort());
        for (const portal of PORTALS) expect(canOrderIn(name, portal)).to.equal(expected[name].includes(portal));
      });
    }
    it('testsOrderableIn lists each portal\'s tests in catalogue order', () => {
      expect(testsOrderableIn(CLINICAL)).to.deep.equal(['PROSTOX ultra', 'PROSTOX CFRT', 'PROSTOX Research', 'KRAS', 'PREVIOTOX']);
      expect(testsOrderableIn(RESEARCH)).to.deep.equal(['PREVIOTOX', 'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX']);
      expect(testsOrderableIn(PATIENT)).to.deep.equal(['PROSTOX ultra', 'PROSTOX CFRT', 'KRAS', 'PREVIOTOX']);
      expect(testsOrderableIn(LAB)).to.deep.equal([]);
    });
  });

  it('parent test types', () => {
    const parents = Object.fromEntries(TEST_NAMES.map((n) => [n, catalogueEntry(n).parentType]));
    expect(parents).to.deep.equal({
      'PROSTOX ultra': 'PROSTOX',
      'PROSTOX CFRT': 'PROSTOX',
      'PROSTOX Research': 'PROSTOX',
      KRAS: 'KRAS',
      PREVIOTOX: 'PREVIOTOX',
      'HEAD AND NECK': 'HEAD AND NECK',
      SARCOMA: 'SARCOMA',
      'RECTAL CANCER': 'RECTAL CANCER',
      'BREAST TOX': 'BREAST TOX',
      'COVID-19 PCR': null,
      'COVID-19 Rapid': null,
      'DNA Extraction': null,
      IMUDX: null,
      'SARS-CoV-2 lineage identifier': null,
    });
  });

  it('research tests are the spec\'s list (head and neck, PROSTOX Research, sarcoma, rectal cancer, breast tox)', () => {
    expect(researchTests()).to.deep.equal(['PROSTOX Research', 'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX']);
    expect(catalogueEntry('PREVIOTOX').research).to.equal(false);
  });

  describe('prices in cents', () => {
    it('self-pay and financial-assistance prices per test', () => {
      const prices = Object.fromEntries(TEST_NAMES.map((n) => [n, [catalogueEntry(n).selfPayCents, catalogueEntry(n).assistanceCents]]));
      expect(prices).to.deep.equal({
        'PROSTOX ultra': [50000, 10000],
        'PROSTOX CFRT': [50000, 10000],
        'PROSTOX Research': [null, null],
        KRAS: [12900, 10000],
        PREVIOTOX: [50000, 10000],
        'HEAD AND NECK': [null, null],
        SARCOMA: [null, null],
        'RECTAL CANCER': [null, null],
        'BREAST TOX': [null, null],
        'COVID-19 PCR': [null, null],
        'COVID-19 Rapid': [null, null],
        'DNA Extraction': [null, null],
        IMUDX: [null, null],
        'SARS-CoV-2 lineage identifier': [null, null],
      });
    });
    it('patientPriceCents for single tests', () => {
      expect(patientPriceCents(['KRAS'], { financialAssistance: false })).to.equal(12900);
      expect(patientPriceCents(['KRAS'], { financialAssistance: true })).to.equal(10000);
      expect(patientPriceCents(['PREVIOTOX'], { financialAssistance: false })).to.equal(50000);
      expect(patientPriceCents(['PREVIOTOX'], { financialAssistance: true })).to.equal(10000);
      expect(patientPriceCents(['PROSTOX ultra'], { financialAssistance: false })).to.equal(50000);
      expect(patientPriceCents(['PROSTOX CFRT'], { financialAssistance: true })).to.equal(10000);
    });
    it('both PROSTOX ultra and CFRT: 1000 USD, 200 USD with assistance, in either order', () => {
      expect(PROSTOX_BOTH.selfPayCents).to.equal(100000);
      expect(PROSTOX_BOTH.assistanceCents).to.equal(20000);
      expect(patientPriceCents(['PROSTOX ultra', 'PROSTOX CFRT'], { financialAssistance: false })).to.equal(100000);
      expect(patientPriceCents(['PROSTOX CFRT', 'PROSTOX ultra'], { financialAssistance: true })).to.equal(20000);
    });
    it('refuses orders a patient cannot place', () => {
      expect(() => patientPriceCents([], { financialAssistance: false })).to.throw(RangeError, 'at least one test');
      expect(() => patientPriceCents(['KRAS', 'KRAS'], { financialAssistance: false })).to.throw(RangeError, 'each test once');
      expect(() => patientPriceCents(['PROSTOX Research'], { financialAssistance: false })).to.throw(RangeError, 'PROSTOX Research cannot be ordered through the Patient Portal');
      expect(() => patientPriceCents(['SARCOMA'], { financialAssistance: false })).to.throw(RangeError, 'SARCOMA cannot be ordered');
      expect(() => patientPriceCents(['COVID-19 PCR'], { financialAssistance: false })).to.throw(RangeError, 'cannot be ordered');
      expect(() => patientPriceCents(['KRAS', 'PREVIOTOX'], { financialAssistance: false })).to.throw(RangeError, 'one test, or PROSTOX ultra together with PROSTOX CFRT');
      expect(() => patientPriceCents(['PROSTOX ultra', 'PROSTOX CFRT', 'KRAS'], { financialAssistance: false })).to.throw(RangeError);
    });
    it('mirakindDonationCents is 20% in whole cents', () => {
      expect(mirakindDonationCents(50000)).to.equal(10000);
      expect(mirakindDonationCents(12900)).to.equal(2580);
      expect(mirakindDonationCents(100000)).to.equal(20000);
      expect(mirakindDonationCents(10000)).to.equal(2000);
      expect(mirakindDonationCents(0)).to.equal(0);
      expect(mirakindDonationCents(3)).to.equal(1); // 0.6 -> 1
      expect(mirakindDonationCents(2)).to.equal(0); // 0.4 -> 0
      expect(() => mirakindDonationCents(-1)).to.throw(RangeError);
      expect(() => mirakindDonationCents(12.5)).to.throw(RangeError);
    });
  });

  describe('result scales', () => {
    it('each test reports on its scale', () => {
      const scales = Object.fromEntries(TEST_NAMES.map((n) => [n, [catalogueEntry(n).scale, ...catalogueEntry(n).acceptedScales]]));
      expect(scales).to.deep.equal({
        'PROSTOX ultra': ['risk4', 'risk4', 'risk2'],
        'PROSTOX CFRT': ['risk4', 'risk4', 'risk2'],
        'PROSTOX Research': ['risk4', 'risk4', 'risk2'],
        KRAS: ['kras', 'kras'],
        PREVIOTOX: ['risk4', 'risk4', 'risk2'],
        'HEAD AND NECK': ['risk4', 'risk4', 'risk2'],
        SARCOMA: ['risk4', 'risk4', 'risk2'],
        'RECTAL CANCER': ['risk4', 'risk4', 'risk2'],
        'BREAST TOX': ['risk4', 'risk4', 'risk2'],
        'COVID-19 PCR': ['covid', 'covid'],
        'COVID-19 Rapid': ['covid', 'covid'],
        'DNA Extraction': [null],
        IMUDX: ['risk4', 'risk4', 'risk2'],
        'SARS-CoV-2 lineage identifier': ['lineage', 'lineage'],
      });
    });

    it('risk tests accept both risk scales and nothing else', () => {
      for (const name of ['PROSTOX ultra', 'PROSTOX CFRT', 'PROSTOX Research', 'PREVIOTOX', 'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX'] as TestName[]) {
        for (const v of [...RISK_LEVELS, ...TWO_LEVEL_RISKS]) expect(isValidResultValue(name, v), `${name} ${v}`).to.equal(true);
        for (const v of ['high risk', 'High', 'Medium Risk', 'Low-Average', ' High Risk', 'T/T negative', 'DETECTED', '']) {
          expect(isValidResultValue(name, v), `${name} ${v}`).to.equal(false);
        }
      }
    });
    it('KRAS accepts genotypes only', () => {
      for (const v of KRAS_GENOTYPES) expect(isValidResultValue('KRAS', v)).to.equal(true);
      for (const v of ['T/T', 'G/T positive heterozygous', 't/t negative', 'High Risk', 'DETECTED', '']) {
        expect(isValidResultValue('KRAS', v), v).to.equal(false);
      }
    });
    it('COVID-19 PCR accepts the PCR results only', () => {
      for (const v of COVID_PCR_RESULTS) expect(isValidResultValue('COVID-19 PCR', v)).to.equal(true);
      for (const v of ['Detected', 'POSITIVE', 'NOT_DETECTED', 'High Risk', '']) expect(isValidResultValue('COVID-19 PCR', v), v).to.equal(false);
    });
    it('SARS-CoV-2 lineage accepts Pango lineage names', () => {
      for (const v of ['B.1.1.7', 'BA.2.86', 'XBB.1.5', 'B']) expect(isValidResultValue('SARS-CoV-2 lineage identifier', v), v).to.equal(true);
      for (const v of ['', 'ba.2', 'BA..2', 'BA.2.', 'Omicron', 'DETECTED', ' BA.2']) expect(isValidResultValue('SARS-CoV-2 lineage identifier', v), v).to.equal(false);
    });
    it('DNA Extraction reports no result value', () => {
      for (const v of ['High Risk', 'DETECTED', 'T/T negative', 'B.1']) expect(isValidResultValue('DNA Extraction', v)).to.equal(false);
    });
  });

  describe('resultInterpretation', () => {
    it('PROSTOX ultra High Risk: high genetic risk of late toxicity from SBRT, what the physician may consider', () => {
      const text = resultInterpretation('PROSTOX ultra', 'High Risk');
      expect(text).to.equal(
        'The patient has a high genetic risk of late toxicity from SBRT (stereotactic body radiation therapy, fewer than 7 sessions over 1-2 weeks). '
        + 'The treating physician may consider this when choosing the treatment and its follow-up. '
        + 'This result is one factor among others and does not replace clinical judgement.',
      );
    });
    it('PROSTOX CFRT names MHFRT and CFRT', () => {
      expect(resultInterpretation('PROSTOX CFRT', 'Low-Average Risk')).to.match(/^The patient has a low to average genetic risk of late toxicity from MHFRT and CFRT/);
      expect(resultInterpretation('PROSTOX CFRT', 'Very High Risk')).to.contain('very high genetic risk');
      expect(resultInterpretation('PROSTOX CFRT', 'Very High Risk')).to.contain('may consider an alternative treatment');
    });
    it('two-level risk values are interpreted too', () => {
      expect(resultInterpretation('PREVIOTOX', 'Low Risk')).to.equal(
        'The patient has a low genetic risk of late toxicity from radiation therapy. This result is one factor among others and does not replace clinical judgement.',
      );
    });
    it('research tests say research use only', () => {
      expect(resultInterpretation('SARCOMA', 'Intermediate Risk')).to.equal(
        'The patient has an intermediate genetic risk of toxicity from sarcoma radiation therapy. For research use only; not for use in patient management.',
      );
      expect(resultInterpretation('PROSTOX Research', 'High Risk')).to.contain('For research use only');
    });
    it('KRAS says whether the variant is present', () => {
      expect(resultInterpretation('KRAS', 'T/T negative')).to.equal('KRAS-variant not detected (genotype T/T): the patient carries no copy of the variant G allele.');
      expect(resultInterpretation('KRAS', 'T/G positive heterozygous')).to.equal('KRAS-variant detected (genotype T/G, heterozygous): the patient carries one copy of the variant G allele.');
      expect(resultInterpretation('KRAS', 'G/G positive homozygous')).to.equal('KRAS-variant detected (genotype G/G, homozygous): the patient carries two copies of the variant G allele.');
    });
    it('COVID uses the spec\'s result texts', () => {
      expect(resultInterpretation('COVID-19 PCR', 'NOT DETECTED')).to.equal('Not detected');
      expect(resultInterpretation('COVID-19 PCR', 'DETECTED')).to.equal('Detected');
      expect(resultInterpretation('COVID-19 PCR', 'INDETERMINATE')).to.equal('Indeterminate, recollection in 2-3 days');
      expect(resultInterpretation('COVID-19 PCR', 'INVALID')).to.equal('Sample rejected, no RNA isolated, recollection recommended');
      expect(resultInterpretation('COVID-19 Rapid', 'REJECTED')).to.equal('Rejected, sample not received');
    });
    it('lineage names the lineage', () => {
      expect(resultInterpretation('SARS-CoV-2 lineage identifier', 'BA.2.86')).to.equal('SARS-CoV-2 lineage BA.2.86 identified.');
    });
    it('throws for a value that is not a result of the test', () => {
      expect(() => resultInterpretation('KRAS', 'High Risk')).to.throw(RangeError, '"High Risk" is not a result of KRAS');
      expect(() => resultInterpretation('PROSTOX ultra', 'DETECTED')).to.throw(RangeError);
      expect(() => resultInterpretation('DNA Extraction', 'High Risk')).to.throw(RangeError);
    });
  });
});

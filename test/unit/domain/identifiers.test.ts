import { expect } from 'chai';
import {
  checkNewOption,
  controlKind,
  describeBarcodeProblem,
  isControlSample,
  isDataDate,
  isKitBarcode,
  isKrasStudyId,
  isOrderId,
  isPoolId,
  isSampleId,
  KIT_BARCODE_RULE,
  reextractionOf,
} from '@platform/domain';

/** Runs one `it` per example so a failure names the exact value. */
function table(fn: (value: string) => boolean, accepted: string[], refused: string[]): void {
  for (const value of accepted) {
    it(`accepts ${JSON.stringify(value)}`, () => expect(fn(value)).to.equal(true));
  }
  for (const value of refused) {
    it(`refuses ${JSON.stringify(value)}`, () => expect(fn(value)).to.equal(false));
  }
}

describe('domain/identifiers', () => {
  describe('isKitBarcode: 41 or 61 + 12 digits, or 151 + 11 digits', () => {
    table(
      isKitBarcode,
      ['41000000000001', '61999999999999', '41123456789012', '15100000000001', '15199999999999'],
      [
        '', ' ', '41', '4100000000001' /* 13 */, '410000000000012' /* 15 */, '6100000000001',
        '1510000000001' /* 13 */, '151000000000012' /* 15 */, '51000000000001', '42000000000001',
        '16100000000001', '15200000000001', '4100000000000A', '41-00000000001', '41 0000000000001',
        ' 41000000000001', '41000000000001 ', '41000000000001\n', '\t15100000000001', '４1000000000001',
        '41000000000001.reex', 'POOL_1',
      ],
    );
  });

  describe('describeBarcodeProblem', () => {
    it('is null for a good barcode', () => {
      expect(describeBarcodeProblem('41000000000001')).to.equal(null);
      expect(describeBarcodeProblem('15100000000001')).to.equal(null);
    });
    it('names the rule for a wrong prefix', () => {
      expect(describeBarcodeProblem('52000000000001')).to.equal(
        'Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits',
      );
      expect(KIT_BARCODE_RULE).to.equal('Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits');
    });
    it('says a barcode is required when empty or blank', () => {
      expect(describeBarcodeProblem('')).to.equal('Barcode is required');
      expect(describeBarcodeProblem('   ')).to.equal('Barcode is required (only spaces were entered)');
    });
    it('points at surrounding spaces rather than trimming them', () => {
      expect(describeBarcodeProblem(' 41000000000001')).to.equal(`Barcode must not start or end with a space. ${KIT_BARCODE_RULE}`);
      expect(describeBarcodeProblem('41000000000001 ')).to.equal(`Barcode must not start or end with a space. ${KIT_BARCODE_RULE}`);
    });
    it('points at letters and symbols', () => {
      expect(describeBarcodeProblem('41O00000000001')).to.equal(`Barcode must contain digits only. ${KIT_BARCODE_RULE}`);
    });
    it('gives the length it found', () => {
      expect(describeBarcodeProblem('4100000000001')).to.equal(`Barcode must be 14 digits long (this one has 13). ${KIT_BARCODE_RULE}`);
      expect(describeBarcodeProblem('151000000000012')).to.equal(`Barcode must be 14 digits long (this one has 15). ${KIT_BARCODE_RULE}`);
    });
  });

  describe('isKrasStudyId: KRAS-WH-, MDXKRAS-HNSCC or KRASHNSCC + letters, digits or hyphens', () => {
    table(
      isKrasStudyId,
      ['KRAS-WH-0001', 'KRAS-WH-A', 'MDXKRAS-HNSCC-017', 'MDXKRAS-HNSCC017', 'KRASHNSCC103', 'KRASHNSCC-1-B', 'KRAS-WH-' + 'A'.repeat(32)],
      [
        '', 'KRAS-WH-', 'MDXKRAS-HNSCC', 'KRASHNSCC', 'KRAS-WH-001-', 'KRAS-WH--', 'kras-wh-001', 'KRAS-WH-00 1',
        'KRAS-WH-001_2', 'KRAS-WH-001.reex', ' KRAS-WH-001', 'KRAS-WH-001 ', 'KRAS-001', 'KRASWH-001', 'XKRAS-WH-001',
        'KRAS-WH-' + 'A'.repeat(33),
      ],
    );
  });

  describe('isSampleId: 41/61 + 12 digits, 55 + YYYYMM + 4-8 digits, POOL_ + alphanumerics', () => {
    table(
      isSampleId,
      [
        '41000000000001', '61000000000001', '552026110001', '55202611000001', '5520261100000001' /* 8-digit sequence */,
        '552000010001', '552099120001', 'POOL_1', 'POOL_A12', 'POOL_abcXYZ09', 'POOL_' + 'A'.repeat(40),
      ],
      [
        '', '15100000000001' /* a kit barcode, not a sample id */, '4100000000001', '410000000000012',
        '552026130001' /* month 13 */, '552026000001' /* month 00 */, '55202611001' /* 3-digit sequence */,
        '55202611000000001' /* 9-digit sequence */, '551999110001' /* year 1999 */, '55202611000A',
        '56202611000001', 'POOL_', 'POOL', 'pool_1', 'POOL-1', 'POOL_1-2', 'POOL_1_2', 'POOL_ 1',
        'POOL_' + 'A'.repeat(41), ' 41000000000001', '41000000000001 ', ' POOL_1', '41000000000001.reex',
      ],
    );
    it('isPoolId accepts pools only', () => {
      expect(isPoolId('POOL_7')).to.equal(true);
      expect(isPoolId('41000000000001')).to.equal(false);
    });
  });

  describe('isOrderId: RF_ or RG_ + 9 digits, or RPD + 10 digits', () => {
    table(
      isOrderId,
      ['RF_000000001', 'RG_123456789', 'RPD0000000001', 'RPD9999999999'],
      [
        '', 'RF_00000001' /* 8 */, 'RF_0000000001' /* 10 */, 'RG_12345678A', 'RH_123456789', 'rf_123456789',
        'RF123456789', 'RF-123456789', 'RPD000000001' /* 9 */, 'RPD00000000001' /* 11 */, 'RPD_0000000001',
        'RP_123456789', ' RF_123456789', 'RF_123456789 ', 'RPD000000000A',
      ],
    );
  });

  describe('controlKind and isControlSample', () => {
    const cases: [string, ReturnType<typeof controlKind>][] = [
      ['41000000000001.reex', 're-extraction'],
      ['61000000000001.reex', 're-extraction'],
      ['552026110001.reex', 're-extraction'],
      ['POOL_A1.reex', 're-extraction'],
      ['POS PCR CTRL', 'positive'],
      ['POS_PCR_CTRL', 'positive'],
      ['POS PCR CTRL 1', 'positive'],
      ['POS_PCR_CTRL_12', 'positive'],
      ['POS PCR CTRL2', 'positive'],
      ['NEG PCR CTRL', 'negative'],
      ['NEG_PCR_CTRL', 'negative'],
      ['NEG_PCR_CTRL_1', 'negative'],
      ['NEG PCR CTRL 3', 'negative'],
      ['Null', 'null'],
      ['Null 2', 'null'],
      ['Null_2', 'null'],
      ['Null2', 'null'],
      // refused: spelling, case, separators, spaces, bad ids
      ['', null],
      ['41000000000001', null],
      ['41000000000001.REEX', null],
      ['41000000000001.reex.reex', null],
      ['41000000000001reex', null],
      ['4100000000001.reex', null],
      ['.reex', null],
      ['41000000000001.reex ', null],
      ['NEG PCR CTRL ', null],
      [' NEG PCR CTRL', null],
      ['NEG_PCR CTRL', null],
      ['NEG  PCR CTRL', null],
      ['NEG PCR CONTROL', null],
      ['neg pcr ctrl', null],
      ['NEG PCR CTRL 1234', null],
      ['NEG PCR CTRL_1', null],
      ['POS-PCR-CTRL', null],
      ['null', null],
      ['NULL', null],
      ['Null ', null],
      ['Nullx', null],
      ['None', null],
    ];
    for (const [value, kind] of cases) {
      it(`${JSON.stringify(value)} -> ${String(kind)}`, () => {
        expect(controlKind(value)).to.equal(kind);
        expect(isControlSample(value)).to.equal(kind !== null);
      });
    }
    it('reextractionOf names the sample a re-extraction belongs to', () => {
      expect(reextractionOf('41000000000001.reex')).to.equal('41000000000001');
      expect(reextractionOf('POOL_A1.reex')).to.equal('POOL_A1');
      expect(reextractionOf('41000000000001')).to.equal(null);
      expect(reextractionOf('NEG PCR CTRL')).to.equal(null);
    });
  });

  describe('isDataDate: YYYY-MM-DD and a real calendar date', () => {
    table(
      isDataDate,
      ['2026-01-01', '2026-12-31', '2024-02-29', '2000-02-29', '2026-04-30', '1950-06-15', '2026-02-28'],
      [
        '', '2026-02-30', '2026-02-29' /* not a leap year */, '1900-02-29' /* century, not leap */, '2026-04-31',
        '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32', '2026-1-01', '2026-01-1', '26-01-01',
        '2026/01/01', '01/02/2026', '2026-01-01T00:00:00Z', ' 2026-01-01', '2026-01-01 ', '20260101', 'yyyy-mm-dd',
      ],
    );
  });

  describe('checkNewOption', () => {
    const existing = ['Blue Cross', 'Aetna', 'Radiation  Oncology'];
    it('accepts a new value and returns it trimmed', () => {
      expect(checkNewOption('Cigna', existing)).to.deep.equal({ ok: true, value: 'Cigna' });
      expect(checkNewOption('  United Health ', existing)).to.deep.equal({ ok: true, value: 'United Health' });
      expect(checkNewOption('Cigna', [])).to.deep.equal({ ok: true, value: 'Cigna' });
    });
    it('refuses an empty or whitespace-only value', () => {
      expect(checkNewOption('', existing)).to.deep.equal({ ok: false, error: 'The new option must not be empty' });
      expect(checkNewOption('   \t\n', existing)).to.deep.equal({ ok: false, error: 'The new option must not be empty' });
    });
    it('refuses a duplicate whatever its case and spacing', () => {
      expect(checkNewOption('Aetna', existing)).to.deep.equal({ ok: false, error: 'The option "Aetna" already exists' });
      expect(checkNewOption('aetna', existing)).to.deep.equal({ ok: false, error: 'The option "Aetna" already exists' });
      expect(checkNewOption(' BLUE CROSS ', existing)).to.deep.equal({ ok: false, error: 'The option "Blue Cross" already exists' });
      expect(checkNewOption('Blue   cross', existing)).to.deep.equal({ ok: false, error: 'The option "Blue Cross" already exists' });
      expect(checkNewOption('radiation oncology', existing)).to.deep.equal({ ok: false, error: 'The option "Radiation  Oncology" already exists' });
    });
    it('does not treat a longer or shorter name as a duplicate', () => {
      expect(checkNewOption('Aetna Better Health', existing)).to.deep.equal({ ok: true, value: 'Aetna Better Health' });
      expect(checkNewOption('Blue', existing)).to.deep.equal({ ok: true, value: 'Blue' });
    });
    it('refuses a value longer than 100 characters', () => {
      expect(checkNewOption('x'.repeat(100), existing)).to.deep.equal({ ok: true, value: 'x'.repeat(100) });
      expect(checkNewOption('x'.repeat(101), existing)).to.deep.equal({ ok: false, error: 'The new option must be at most 100 characters long' });
    });
  });
});

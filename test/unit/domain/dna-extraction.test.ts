import { expect } from 'chai';
import {
  canRelease,
  DEFAULT_EXTRACTION_ACCEPTANCE,
  dnaQcOf,
  DnaQc,
  extractionColumnOf,
  extractionDecisionRefusal,
  extractionFlags,
  extractionRowRefusal,
  readExtractionNumber,
  readExtractionSampleId,
  readExtractionWell,
  SampleStatus,
  TestResultStatus,
  type ExtractionDecisionState,
} from '@platform/domain';

const RANGE = DEFAULT_EXTRACTION_ACCEPTANCE;

describe('domain: DNA extraction', () => {
  it('reads the headers lab instruments write', () => {
    expect(['Sample ID', 'sample', 'Concentration (ng/µL)', 'A260/280', 'a260_280', 'Volume (µL)', 'PLATE', 'Well'].map(extractionColumnOf))
      .to.deep.equal(['sample_id', 'sample_id', 'concentration', 'a260_280', 'a260_280', 'volume', 'plate', 'well']);
    expect(extractionColumnOf('A260/230')).to.equal(null);
  });

  it('flags each measure outside the range; the limits themselves are accepted', () => {
    expect(extractionFlags({ concentration: 10, a260280: 1.7, volume: 20 }, RANGE)).to.deep.equal([]);
    expect(extractionFlags({ concentration: 52, a260280: 2.1, volume: 400 }, RANGE)).to.deep.equal([]);
    expect(extractionFlags({ concentration: 9.99, a260280: 1.8, volume: 20 }, RANGE)).to.deep.equal(['Concentration 9.99 ng/µL is below 10 ng/µL']);
    expect(extractionFlags({ concentration: 10, a260280: 2.11, volume: 19.5 }, RANGE)).to.deep.equal([
      'A260/280 2.11 is above 2.1 (accepted 1.7–2.1)',
      'Volume 19.5 µL is below 20 µL',
    ]);
    expect(extractionFlags({ concentration: 10, a260280: 1.69, volume: 20 }, RANGE)).to.deep.equal(['A260/280 1.69 is below 1.7 (accepted 1.7–2.1)']);
  });

  it('reads cells exactly as written: never trims, never guesses a decimal comma', () => {
    expect(readExtractionNumber('concentration', '52.40')).to.deep.equal({ ok: true, value: 52.4 });
    expect(readExtractionNumber('concentration', '.5')).to.deep.equal({ ok: true, value: 0.5 });
    for (const bad of [' 52.4', '52.4 ', '52,4', '-3', '1e3', '', '   ', '52.4ng']) {
      expect(readExtractionNumber('concentration', bad).ok, JSON.stringify(bad)).to.equal(false);
    }
    expect(readExtractionNumber('a260_280', '0')).to.deep.equal({ ok: false, message: 'The A260/280 must be more than 0' });
    expect(readExtractionNumber('volume', '20000').ok).to.equal(false);
    expect(readExtractionSampleId('41000000000001.reex')).to.deep.equal({ ok: true, value: { barcode: '41000000000001', reextraction: true } });
    expect(readExtractionSampleId('552026110001')).to.deep.equal({ ok: true, value: { barcode: '552026110001', reextraction: false } });
    expect(readExtractionSampleId('POOL_A12').ok).to.equal(true);
    expect(readExtractionSampleId('41000000000001 ').ok).to.equal(false);
    expect(readExtractionSampleId('Null 2').ok).to.equal(false);
    expect(readExtractionSampleId('41000000000001.reex.reex').ok).to.equal(false);
    expect(readExtractionWell('H12').ok).to.equal(true);
    for (const bad of ['a1', 'A13', 'A0', 'A01', ' A1']) expect(readExtractionWell(bad).ok, bad).to.equal(false);
  });

  it('takes an extraction of a sample In Queue or In Testing, a .reex only after a re-extraction was asked for, and one waiting or released extraction at most', () => {
    const s = { barcode: '41000000000001', status: SampleStatus.InQueue, reextractionRequested: false, openResult: null } as const;
    expect(extractionRowRefusal(false, s)).to.equal(null);
    expect(extractionRowRefusal(false, { ...s, status: SampleStatus.InStorage })).to.match(/is In Storage: an extraction can be imported only/);
    expect(extractionRowRefusal(true, s)).to.equal('Sample 41000000000001 was not sent to re-extraction: its extraction goes by 41000000000001');
    expect(extractionRowRefusal(true, { ...s, status: SampleStatus.InTesting, reextractionRequested: true })).to.equal(null);
    expect(extractionRowRefusal(false, { ...s, reextractionRequested: true })).to.match(/goes by 41000000000001\.reex$/);
    expect(extractionRowRefusal(false, { ...s, openResult: TestResultStatus.Released })).to.match(/already has a released DNA extraction$/);
  });

  it('decides a flagged extraction once, while its result waits in review and its sample is In Testing; a re-extraction is not re-extracted', () => {
    const e: ExtractionDecisionState = {
      label: '41000000000001', barcode: '41000000000001', flags: ['Volume 5 µL is below 20 µL'], outcome: null, reextractionId: null,
      resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting,
    };
    expect(extractionDecisionRefusal(e, 're-extraction')).to.equal(null);
    expect(extractionDecisionRefusal(e, 'reject-sample')).to.equal(null);
    expect(extractionDecisionRefusal({ ...e, flags: [] }, 'reject-sample')).to.match(/within the acceptance range/);
    expect(extractionDecisionRefusal({ ...e, outcome: 're-extraction', reextractionId: '41000000000001.reex' }, 'reject-sample')).to.match(/already sent to re-extraction/);
    expect(extractionDecisionRefusal({ ...e, resultStatus: TestResultStatus.Rejected }, 'reject-sample')).to.match(/no longer in review/);
    expect(extractionDecisionRefusal({ ...e, sampleStatus: SampleStatus.Rejected }, 'reject-sample')).to.match(/is Rejected/);
    const reex = { ...e, label: '41000000000001.reex' };
    expect(extractionDecisionRefusal(reex, 're-extraction')).to.match(/re-extracted once/);
    expect(extractionDecisionRefusal(reex, 'reject-sample')).to.equal(null);
  });

  it('the release rule never releases a flagged extraction, and releases one within the range', () => {
    const candidate = {
      resultId: 7, resultStatus: TestResultStatus.InReview, testName: 'DNA Extraction', enteredByUserId: 1, barcode: '41000000000001',
      sampleStatus: SampleStatus.InTesting, statusBeforeStorage: null, correction: false, plate: null,
    };
    expect(canRelease({ ...candidate, extraction: { label: '41000000000001', flags: [] } }, 2, 'dna-extraction')).to.deep.equal({ ok: true });
    const flagged = canRelease({ ...candidate, extraction: { label: '41000000000001', flags: ['Volume 5 µL is below 20 µL'] } }, 2, 'dna-extraction');
    expect(flagged).to.deep.include({ ok: false, kind: 'extraction-flagged' });
    expect(canRelease({ ...candidate, extraction: { label: '41000000000001', flags: ['x'] } }, 1, 'dna-extraction')).to.deep.include({ kind: 'own-result' });
  });

  it("reads a sample's DNA state from its newest extraction", () => {
    const e = { label: '41000000000001', flags: [] as string[], outcome: null, resultStatus: TestResultStatus.InReview };
    expect(dnaQcOf(null)).to.equal(DnaQc.None);
    expect(dnaQcOf(e)).to.equal(DnaQc.InReview);
    expect(dnaQcOf({ ...e, resultStatus: TestResultStatus.Released })).to.equal(DnaQc.Passed);
    expect(dnaQcOf({ ...e, flags: ['Concentration 5.2 ng/µL is below 10 ng/µL'] })).to.equal(DnaQc.Flagged);
    // Sent to re-extraction, its own version is withdrawn (Rejected): it waits for the .reex.
    expect(dnaQcOf({ ...e, flags: ['x'], outcome: 're-extraction', resultStatus: TestResultStatus.Rejected })).to.equal(DnaQc.AwaitingReextraction);
    expect(dnaQcOf({ ...e, resultStatus: TestResultStatus.Rejected })).to.equal(DnaQc.Withdrawn);
    expect(dnaQcOf({ ...e, flags: ['x'], outcome: 'reject-sample' })).to.equal(DnaQc.Rejected);
  });

  it('the release rule holds a risk result whose DNA is flagged, withdrawn or awaits re-extraction, and says why', () => {
    const risk = {
      resultId: 8, resultStatus: TestResultStatus.InReview, testName: 'PROSTOX ultra', enteredByUserId: 1, barcode: '41000000000002',
      sampleStatus: SampleStatus.InTesting, statusBeforeStorage: null, correction: false, plate: null,
    };
    const dna = (qc: DnaQc) => ({ label: '41000000000002', qc, flags: ['Concentration 5.2 ng/µL is below 10 ng/µL'] });
    for (const qc of [DnaQc.None, DnaQc.InReview, DnaQc.Passed]) expect(canRelease({ ...risk, sampleDna: dna(qc) }, 2)).to.deep.equal({ ok: true });
    expect(canRelease({ ...risk, sampleDna: null }, 2)).to.deep.equal({ ok: true });
    expect(canRelease({ ...risk, sampleDna: dna(DnaQc.Flagged) }, 2)).to.deep.equal({
      ok: false, kind: 'dna-held',
      message: 'The PROSTOX ultra result of sample 41000000000002 cannot be released: its DNA extraction 41000000000002 is outside the acceptance range (Concentration 5.2 ng/µL is below 10 ng/µL) and waits for a decision',
    });
    for (const qc of [DnaQc.AwaitingReextraction, DnaQc.Withdrawn, DnaQc.Rejected]) {
      expect(canRelease({ ...risk, sampleDna: dna(qc) }, 2)).to.deep.include({ ok: false, kind: 'dna-held' });
    }
    // A correction of a released result is held the same way.
    expect(canRelease({ ...risk, correction: true, sampleDna: dna(DnaQc.Withdrawn) }, 2)).to.deep.include({ ok: false, kind: 'dna-held' });
  });
});

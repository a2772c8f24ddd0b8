import { expect } from 'chai';
import { nextFreeWell, readPlateName, readStorageContent, readWell, SampleStatus, STORAGE_WELLS, workStatusOf } from '@platform/domain';

describe('domain: storage plates', () => {
  it('reads wells A1-H12 exactly, a zero-padded column as the plain one, and refuses the rest with the rule', () => {
    expect(readWell('A1')).to.deep.equal({ ok: true, value: 'A1' });
    expect(readWell('H12')).to.deep.equal({ ok: true, value: 'H12' });
    expect(readWell('C07')).to.deep.equal({ ok: true, value: 'C7' });
    for (const bad of ['I1', 'A0', 'A13', 'a1', 'A 1', '1A', 'A001']) {
      const read = readWell(bad);
      expect(read.ok, bad).to.equal(false);
      expect(!read.ok && read.error, bad).to.match(/^Well must be a row A-H and a column 1-12/);
    }
    expect(readWell(' A1')).to.deep.equal({ ok: false, error: 'Well must not start or end with a space' });
    expect(readWell('')).to.deep.equal({ ok: false, error: 'Well is required' });
    expect(readWell('  ')).to.deep.equal({ ok: false, error: 'Well is required (only spaces were entered)' });
  });

  it('reads a sample id of every form, a re-extraction and the controls; never trims', () => {
    expect(readStorageContent('41000000000001')).to.deep.equal({ ok: true, value: { kind: 'sample', sampleId: '41000000000001' } });
    expect(readStorageContent('15100000000001')).to.deep.equal({ ok: true, value: { kind: 'sample', sampleId: '15100000000001' } });
    expect(readStorageContent('552026110001')).to.deep.equal({ ok: true, value: { kind: 'sample', sampleId: '552026110001' } });
    expect(readStorageContent('POOL_A12')).to.deep.equal({ ok: true, value: { kind: 'sample', sampleId: 'POOL_A12' } });
    expect(readStorageContent('61000000000002.reex')).to.deep.equal({ ok: true, value: { kind: 're-extraction', sampleId: '61000000000002' } });
    expect(readStorageContent('NEG PCR CTRL')).to.deep.equal({ ok: true, value: { kind: 'negative', sampleId: null } });
    expect(readStorageContent('POS_PCR_CTRL_3')).to.deep.equal({ ok: true, value: { kind: 'positive', sampleId: null } });
    expect(readStorageContent('Null')).to.deep.equal({ ok: true, value: { kind: 'null', sampleId: null } });
    expect(readStorageContent('41000000000001 ')).to.deep.equal({ ok: false, error: 'Sample id must not start or end with a space' });
    expect(readStorageContent('552026130001').ok).to.equal(false); // month 13
    const junk = readStorageContent('4100000000000');
    expect(!junk.ok && junk.error).to.match(/^"4100000000000" is neither a sample id \(a sample id is 41 or 61/);
  });

  it('reads plate names as given: no spaces around, no control characters, at most 64 characters', () => {
    expect(readPlateName('Freezer 2 / P-001')).to.deep.equal({ ok: true, value: 'Freezer 2 / P-001' });
    expect(readPlateName('P-1 ')).to.deep.equal({ ok: false, error: 'Plate must not start or end with a space' });
    expect(readPlateName('P\t1')).to.deep.equal({ ok: false, error: 'Plate must not contain control characters' });
    expect(readPlateName('x'.repeat(65))).to.deep.equal({ ok: false, error: 'Plate must be at most 64 characters long' });
  });

  it('suggests the next free well down the columns, after the one given, wrapping round; none on a full plate', () => {
    expect(nextFreeWell([])).to.equal('A1');
    expect(nextFreeWell(['A1'], 'A1')).to.equal('B1');
    expect(nextFreeWell(['A1', 'B1', 'H1'], 'G1')).to.equal('A2');
    expect(nextFreeWell(['H12', 'A1'], 'H12')).to.equal('B1');
    expect(nextFreeWell(STORAGE_WELLS)).to.equal(null);
  });

  it('colours a stored sample by the status it goes back to', () => {
    expect(workStatusOf({ status: SampleStatus.InStorage, statusBeforeStorage: SampleStatus.Completed })).to.equal('Completed');
    expect(workStatusOf({ status: SampleStatus.InTesting, statusBeforeStorage: null })).to.equal('In Testing');
  });
});

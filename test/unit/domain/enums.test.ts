import { expect } from 'chai';
import {
  ACCESS_STATUSES,
  ACCOUNT_ROLES,
  ACCOUNT_TYPES,
  COVID_PCR_RESULT_TEXT,
  COVID_PCR_RESULTS,
  DOCUMENT_TYPES,
  ENTITY_KINDS,
  FILE_KINDS,
  ITEM_KINDS,
  JOB_STATUSES,
  KRAS_GENOTYPES,
  PARENT_TEST_TYPES,
  PORTALS,
  PROVIDER_TITLES,
  RADIATION_TREATMENTS,
  REJECTION_PREFIX,
  REJECTION_REASONS,
  REQUEST_STATUSES,
  RESEARCH_TESTS,
  RESPIRATORY_SAMPLE_TYPES,
  RESULT_LIST_CATEGORIES,
  RISK_LEVELS,
  SAMPLE_STATUSES,
  SAMPLE_TYPES,
  SHIPMENT_STATUSES,
  SPECIALTIES,
  TEST_NAMES,
  TEST_ORIGINS,
  TREATMENT_OPTIONS,
  TWO_LEVEL_RISKS,
  YES_NO_OTHER,
} from '@platform/domain';

/** The spec's exact strings (SPEC §3), in the spec's order. */
describe('domain/enums: the exact strings of SPEC §3', () => {
  it('sample/order statuses', () => {
    expect(SAMPLE_STATUSES).to.deep.equal([
      'Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Testing',
      'Resulted', 'Rejected', 'In Storage', 'Completed', 'Discarded',
    ]);
  });
  it('test origins', () => {
    expect(TEST_ORIGINS).to.deep.equal(['Lab Ordered', 'Patient Ordered', 'Provider Ordered']);
  });
  it('portals', () => {
    expect(PORTALS).to.deep.equal(['Research Portal', 'Clinical Portal', 'Patient Portal', 'Lab Toolbox']);
  });
  it('result list categories', () => {
    expect(RESULT_LIST_CATEGORIES).to.deep.equal(['COMPLETED', 'PENDING', 'PATIENT_ORDERED', 'PENDING_SHIPMENT_FROM_PROVIDER']);
  });
  it('sample types and the respiratory subset', () => {
    expect(SAMPLE_TYPES).to.deep.equal([
      'Buccal Swab', 'Blood', 'Saliva', 'Plasma', 'Oropharyngeal', 'Nasal Cavity', 'Nasopharyngeal',
    ]);
    expect(RESPIRATORY_SAMPLE_TYPES).to.deep.equal(['Oropharyngeal', 'Nasal Cavity', 'Saliva']);
  });
  it('shipment statuses', () => {
    expect(SHIPMENT_STATUSES).to.deep.equal(['Not Ready to Ship', 'Ready to Ship', 'Shipped', 'Cancelled', 'On Hold']);
  });
  it('parent test types', () => {
    expect(PARENT_TEST_TYPES).to.deep.equal([
      'PROSTOX', 'PREVIOTOX', 'KRAS', 'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX',
    ]);
  });
  it('test names: the orderable ones, then the lab\'s own', () => {
    expect(TEST_NAMES).to.deep.equal([
      'PROSTOX ultra', 'PROSTOX CFRT', 'PROSTOX Research', 'KRAS', 'PREVIOTOX',
      'HEAD AND NECK', 'SARCOMA', 'RECTAL CANCER', 'BREAST TOX',
      'COVID-19 PCR', 'COVID-19 Rapid', 'DNA Extraction', 'IMUDX', 'SARS-CoV-2 lineage identifier',
    ]);
  });
  it('research tests list, in the spec\'s words', () => {
    expect(RESEARCH_TESTS).to.deep.equal(['head and neck', 'PROSTOX Research', 'sarcoma', 'rectal cancer', 'breast tox']);
  });
  it('rejection reasons, each prefixed "Rejected - "', () => {
    expect(REJECTION_PREFIX).to.equal('Rejected - ');
    expect(REJECTION_REASONS).to.deep.equal([
      'Rejected - quantity not sufficient',
      'Rejected - identification mismatch',
      'Rejected - specimen expired',
      'Rejected - sample not received',
    ]);
    for (const reason of REJECTION_REASONS) expect(reason.startsWith(REJECTION_PREFIX)).to.equal(true);
  });
  it('yes/no/other', () => {
    expect(YES_NO_OTHER).to.deep.equal(['Yes', 'No', 'Other']);
  });
  it('COVID PCR results and the text printed for each', () => {
    expect(COVID_PCR_RESULTS).to.deep.equal(['DETECTED', 'NOT DETECTED', 'INVALID', 'INDETERMINATE', 'REJECTED']);
    expect(COVID_PCR_RESULT_TEXT).to.deep.equal({
      'NOT DETECTED': 'Not detected',
      INDETERMINATE: 'Indeterminate, recollection in 2-3 days',
      DETECTED: 'Detected',
      INVALID: 'Sample rejected, no RNA isolated, recollection recommended',
      REJECTED: 'Rejected, sample not received',
    });
  });
  it('risk levels, four-level and two-level', () => {
    expect(RISK_LEVELS).to.deep.equal(['Low-Average Risk', 'Intermediate Risk', 'High Risk', 'Very High Risk']);
    expect(TWO_LEVEL_RISKS).to.deep.equal(['Low Risk', 'High Risk']);
  });
  it('KRAS genotypes', () => {
    expect(KRAS_GENOTYPES).to.deep.equal(['T/T negative', 'G/G positive homozygous', 'T/G positive heterozygous']);
  });
  it('request and access statuses', () => {
    expect(REQUEST_STATUSES).to.deep.equal(['Requested']);
    expect(ACCESS_STATUSES).to.deep.equal(['Pending', 'Approved', 'Denied']);
  });
  it('radiation treatment types', () => {
    expect(RADIATION_TREATMENTS).to.deep.equal(['Protons', 'Photons', 'Brachytherapy LDR', 'Brachytherapy HDR']);
  });
  it('document types, item kinds, file kinds, job statuses', () => {
    expect(DOCUMENT_TYPES).to.deep.equal(['lab_report', 'test_requisition_form']);
    expect(ITEM_KINDS).to.deep.equal(['Test', 'Document']);
    expect(FILE_KINDS).to.deep.equal(['ECM File', 'Billing File', 'Order File']);
    expect(JOB_STATUSES).to.deep.equal(['Pending', 'Completed', 'Failed']);
  });
  it('account types and roles ({product} = PROSTOX)', () => {
    expect(ACCOUNT_TYPES).to.deep.equal(['PROSTOX Research Partner', 'General', 'MiraKind']);
    expect(ACCOUNT_ROLES).to.deep.equal(['Physician', 'Support Staff', 'PROSTOX Super Admin']);
  });
  it('entity kinds', () => {
    expect(ENTITY_KINDS).to.deep.equal(['sample', 'patient', 'eligibilityQuestion', 'test', 'file', 'shipment']);
  });
  it('clinical specialties and provider titles', () => {
    expect(SPECIALTIES).to.deep.equal(['Radiation Oncology', 'Urology', 'Medical Oncology']);
    expect(PROVIDER_TITLES).to.deep.equal(['Physician', 'Nurse', 'Other']);
  });
  it('treatment options', () => {
    expect(TREATMENT_OPTIONS).to.deep.equal([
      { test: 'PROSTOX ultra', sessions: 'fewer than 7 sessions', duration: '1-2 weeks', riskOf: 'risk of toxicity from SBRT' },
      { test: 'PROSTOX CFRT', sessions: '35 or more sessions', duration: '8-10 weeks', riskOf: 'risk from MHFRT and CFRT' },
    ]);
  });
});

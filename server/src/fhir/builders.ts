/**
 * The account's data as FHIR R4 resources: pure functions from the rows the queries read
 * (queries.ts) to resources typed by @medplum/fhirtypes. References are relative (`Patient/12`);
 * the lab's systems are under the public URL (systems.ts).
 *
 * Ids: Patient = patient id, Practitioner = physician id, Organization = account id (and `lab` for
 * the performing laboratory), Specimen = sample id, ServiceRequest / DiagnosticReport / Observation
 * = the ordered test's id. A DiagnosticReport and its Observation are versioned by the test's result
 * versions (meta.versionId = test_results.version, meta.lastUpdated = when that version was released):
 * a correction is a new version of the same resources with status `corrected`.
 */
import type {
  Attachment, CodeableConcept, DiagnosticReport, Identifier, Observation, Organization, Patient, Practitioner, Reference, ServiceRequest, Specimen,
} from '@medplum/fhirtypes';
import {
  isTestName, observationCodes, resultInterpretationText, resultValueCode, resultValueText, specimenTypeCode, testCodes, TestOrigin, SampleStatus,
} from '@platform/domain';
import type { LabIdentity } from '../config';
import { BCP47, CLIA_SYSTEM, coding, concept, DATA_ABSENT_REASON, identifierSystems, NPI_SYSTEM, OBSERVATION_CATEGORY, V2_0074, V2_0203 } from './systems';

/** What every builder needs besides its row. */
export interface BuildContext {
  publicUrl: string;
  lab: LabIdentity;
}

export const LAB_ORGANIZATION_ID = 'lab';
const LAB_REF: Reference<Organization> = { reference: `Organization/${LAB_ORGANIZATION_ID}` };

const iso = (d: Date | string | null | undefined): string | undefined => (d == null ? undefined : new Date(d).toISOString());
const dateOnly = (d: Date | string | null | undefined): string | undefined => {
  if (d == null) return undefined;
  return typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);
};
const latest = (...dates: (Date | string | null | undefined)[]): string | undefined => {
  const times = dates.filter((d) => d != null).map((d) => new Date(d!).getTime());
  return times.length ? new Date(Math.max(...times)).toISOString() : undefined;
};

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

export interface PatientRow {
  id: number; account_id: number; first_name: string; last_name: string; date_of_birth: string | null; sex: string | null;
  email: string | null; phone: string | null; address_line1: string | null; address_line2: string | null; city: string | null;
  state: string | null; postal_code: string | null; country: string | null; medical_record_number: string | null;
  preferred_language: string | null; updated_at: Date;
}

export interface PhysicianRow {
  id: number; account_id: number; first_name: string; last_name: string; npi: string | null; updated_at: Date;
}

export interface AccountRow { id: number; name: string; is_active: boolean; updated_at: Date }

/** A sample and what its Specimen names. */
export interface SampleRow {
  sample_id: number; barcode: string; sample_type: string | null; sample_status: string; collected_at: Date | null; received_at: Date | null;
  sample_updated_at: Date; patient_id: number; order_id: number; order_number: string; sample_test_ids: number[] | null;
}

/** An ordered test with its sample and order (ServiceRequest). */
export interface TestRow extends SampleRow {
  test_id: number; test_name: string; test_updated_at: Date; order_created_at: Date; order_updated_at: Date; physician_id: number | null;
  origin: string; signed_off_at: Date | null; cancelled_at: Date | null; has_result: boolean;
}

/** One released (or, for a vread, earlier released) version of a test's result (DiagnosticReport, Observation). */
export interface ResultRow extends SampleRow {
  test_id: number; test_name: string; result_id: number; version: number; value: string; correction_reason: string | null;
  reviewed_at: Date; corrected: boolean; physician_id: number | null;
}

// ---------------------------------------------------------------------------------------------
// Statuses
// ---------------------------------------------------------------------------------------------

/** DiagnosticReport / Observation status of a released version (preliminary and amended are never produced: results are shown only once released). */
export function resultStatus(row: Pick<ResultRow, 'value' | 'corrected'>): 'final' | 'corrected' | 'cancelled' {
  if (resultValueCode(row.value)?.noResult) return 'cancelled';
  return row.corrected ? 'corrected' : 'final';
}

export function serviceRequestStatus(row: Pick<TestRow, 'has_result' | 'cancelled_at' | 'sample_status' | 'origin' | 'signed_off_at'>): ServiceRequest['status'] {
  if (row.has_result) return 'completed';
  if (row.cancelled_at || row.sample_status === SampleStatus.Rejected) return 'revoked';
  if (row.origin === TestOrigin.PatientOrdered && !row.signed_off_at) return 'draft';
  return 'active';
}

export function specimenStatus(row: Pick<SampleRow, 'sample_status' | 'received_at'>): Specimen['status'] | undefined {
  if (row.sample_status === SampleStatus.Rejected) return 'unsatisfactory';
  if (row.sample_status === SampleStatus.Discarded) return 'unavailable';
  return row.received_at ? 'available' : undefined;
}

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

const GENDER: Record<string, Patient['gender']> = { M: 'male', F: 'female', O: 'other', U: 'unknown' };

export function buildPatient(row: PatientRow, _b: BuildContext): Patient {
  const address = [row.address_line1, row.address_line2].filter((l): l is string => Boolean(l));
  const hasAddress = address.length || row.city || row.state || row.postal_code || row.country;
  const identifier: Identifier[] = row.medical_record_number
    ? [{ use: 'usual', type: { coding: [{ system: V2_0203, code: 'MR', display: 'Medical record number' }] }, value: row.medical_record_number, assigner: { reference: `Organization/${row.account_id}` } }]
    : [];
  const telecom = [
    ...(row.phone ? [{ system: 'phone' as const, value: row.phone }] : []),
    ...(row.email ? [{ system: 'email' as const, value: row.email }] : []),
  ];
  return {
    resourceType: 'Patient',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    ...(identifier.length ? { identifier } : {}),
    active: true,
    name: [{ use: 'official', family: row.last_name, given: [row.first_name] }],
    ...(telecom.length ? { telecom } : {}),
    ...(row.sex && GENDER[row.sex] ? { gender: GENDER[row.sex] } : {}),
    ...(row.date_of_birth ? { birthDate: dateOnly(row.date_of_birth) } : {}),
    ...(hasAddress ? {
      address: [{
        ...(address.length ? { line: address } : {}),
        ...(row.city ? { city: row.city } : {}),
        ...(row.state ? { state: row.state } : {}),
        ...(row.postal_code ? { postalCode: row.postal_code } : {}),
        ...(row.country ? { country: row.country } : {}),
      }],
    } : {}),
    ...(row.preferred_language ? { communication: [{ language: { coding: [{ system: BCP47, code: row.preferred_language }] }, preferred: true }] } : {}),
    managingOrganization: { reference: `Organization/${row.account_id}` },
  };
}

export function buildPractitioner(row: PhysicianRow, _b: BuildContext): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    ...(row.npi ? { identifier: [{ system: NPI_SYSTEM, value: row.npi }] } : {}),
    active: true,
    name: [{ family: row.last_name, given: [row.first_name] }],
  };
}

export function buildAccountOrganization(row: AccountRow, _b: BuildContext): Organization {
  return {
    resourceType: 'Organization',
    id: String(row.id),
    meta: { lastUpdated: iso(row.updated_at) },
    active: row.is_active,
    type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov', display: 'Healthcare Provider' }] }],
    name: row.name,
  };
}

/** The performing laboratory (config.lab), with its CLIA number. */
export function buildLabOrganization(b: BuildContext): Organization {
  return {
    resourceType: 'Organization',
    id: LAB_ORGANIZATION_ID,
    identifier: [{ system: CLIA_SYSTEM, value: b.lab.cliaNumber }],
    active: true,
    type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov', display: 'Healthcare Provider' }], text: 'Clinical laboratory' }],
    name: b.lab.name,
    telecom: [{ system: 'phone', value: b.lab.phone }, { system: 'email', value: b.lab.email }],
    address: [{ text: b.lab.address }],
  };
}

function barcodeIdentifier(row: Pick<SampleRow, 'barcode'>, b: BuildContext): Identifier {
  return { type: { coding: [{ system: V2_0203, code: 'ACSN', display: 'Accession ID' }] }, system: identifierSystems(b.publicUrl).barcode, value: row.barcode };
}

function orderIdentifier(row: Pick<SampleRow, 'order_number'>, b: BuildContext): Identifier {
  return { type: { coding: [{ system: V2_0203, code: 'PLAC', display: 'Placer Identifier' }] }, system: identifierSystems(b.publicUrl).orderNumber, value: row.order_number };
}

const patientRef = (id: number): Reference<Patient> => ({ reference: `Patient/${id}` });

export function buildSpecimen(row: SampleRow, b: BuildContext): Specimen {
  const typeCode = specimenTypeCode(row.sample_type);
  const status = specimenStatus(row);
  return {
    resourceType: 'Specimen',
    id: String(row.sample_id),
    meta: { lastUpdated: iso(row.sample_updated_at) },
    identifier: [{ system: identifierSystems(b.publicUrl).barcode, value: row.barcode }],
    accessionIdentifier: barcodeIdentifier(row, b),
    ...(status ? { status } : {}),
    ...(row.sample_type ? { type: typeCode ? concept([typeCode], b.publicUrl, row.sample_type) : { text: row.sample_type } } : {}),
    subject: patientRef(row.patient_id),
    ...(row.received_at ? { receivedTime: iso(row.received_at) } : {}),
    ...(row.sample_test_ids?.length ? { request: row.sample_test_ids.map((id) => ({ reference: `ServiceRequest/${id}` })) } : {}),
    ...(row.collected_at ? { collection: { collectedDateTime: iso(row.collected_at) } } : {}),
  };
}

function testConcept(name: string, b: BuildContext, observation = false): CodeableConcept {
  if (!isTestName(name)) return { text: name };
  return concept(observation ? observationCodes(name) : testCodes(name), b.publicUrl, name);
}

export function buildServiceRequest(row: TestRow, b: BuildContext): ServiceRequest {
  return {
    resourceType: 'ServiceRequest',
    id: String(row.test_id),
    meta: { lastUpdated: latest(row.test_updated_at, row.sample_updated_at, row.order_updated_at) },
    identifier: [orderIdentifier(row, b), barcodeIdentifier(row, b)],
    requisition: orderIdentifier(row, b),
    status: serviceRequestStatus(row),
    intent: 'order',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: testConcept(row.test_name, b),
    subject: patientRef(row.patient_id),
    authoredOn: iso(row.order_created_at),
    ...(row.physician_id ? { requester: { reference: `Practitioner/${row.physician_id}` } } : {}),
    performer: [LAB_REF],
    specimen: [{ reference: `Specimen/${row.sample_id}` }],
  };
}

const resultMeta = (row: ResultRow) => ({ versionId: String(row.version), lastUpdated: iso(row.reviewed_at) });

/** The Binary id of a result version's lab report PDF (readFhirBinary). */
export const reportBinaryId = (resultId: number) => `lab-report-${resultId}`;
export const REPORT_BINARY_ID = /^lab-report-(\d{1,15})$/;

export function buildObservation(row: ResultRow, b: BuildContext): Observation {
  const status = resultStatus(row);
  const coded = resultValueCode(row.value);
  const text = resultValueText(row.test_name, row.value);
  const notes = [
    ...(row.correction_reason?.trim() ? [{ text: `Corrected result: ${row.correction_reason.trim()}` }] : []),
    ...(resultInterpretationText(row.test_name, row.value) ? [{ text: resultInterpretationText(row.test_name, row.value)! }] : []),
  ];
  const value: Partial<Observation> = coded?.noResult
    ? { dataAbsentReason: { coding: [{ system: DATA_ABSENT_REASON, code: 'not-performed', display: 'Not Performed' }], text } }
    : coded
      ? { valueCodeableConcept: concept([coded.code], b.publicUrl, text) }
      : { valueString: row.value };
  return {
    resourceType: 'Observation',
    id: String(row.test_id),
    meta: resultMeta(row),
    basedOn: [{ reference: `ServiceRequest/${row.test_id}` }],
    status,
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    code: testConcept(row.test_name, b, true),
    subject: patientRef(row.patient_id),
    ...(row.collected_at ? { effectiveDateTime: iso(row.collected_at) } : {}),
    issued: iso(row.reviewed_at),
    performer: [LAB_REF],
    ...value,
    ...(coded?.interpretation ? { interpretation: [{ coding: [coding(coded.interpretation, b.publicUrl)] }] } : {}),
    ...(notes.length ? { note: notes } : {}),
    specimen: { reference: `Specimen/${row.sample_id}` },
  };
}

export function buildDiagnosticReport(row: ResultRow, b: BuildContext): DiagnosticReport {
  const interpretation = resultInterpretationText(row.test_name, row.value);
  const correction = row.correction_reason?.trim() ? `Corrected result: ${row.correction_reason.trim()}.` : row.corrected ? 'Corrected result.' : '';
  const conclusion = [correction, interpretation ?? resultValueText(row.test_name, row.value)].filter(Boolean).join(' ');
  const pdf: Attachment = {
    contentType: 'application/pdf',
    language: 'en',
    url: `Binary/${reportBinaryId(row.result_id)}`,
    title: `lab-report-${row.barcode}${row.corrected ? '-corrected' : ''}.pdf`,
  };
  return {
    resourceType: 'DiagnosticReport',
    id: String(row.test_id),
    meta: resultMeta(row),
    identifier: [barcodeIdentifier(row, b), orderIdentifier(row, b)],
    basedOn: [{ reference: `ServiceRequest/${row.test_id}` }],
    status: resultStatus(row),
    category: [{ coding: [{ system: V2_0074, code: 'LAB', display: 'Laboratory' }] }],
    code: testConcept(row.test_name, b),
    subject: patientRef(row.patient_id),
    ...(row.collected_at ? { effectiveDateTime: iso(row.collected_at) } : {}),
    issued: iso(row.reviewed_at),
    performer: [LAB_REF],
    specimen: [{ reference: `Specimen/${row.sample_id}` }],
    result: [{ reference: `Observation/${row.test_id}` }],
    ...(conclusion ? { conclusion } : {}),
    presentedForm: [pdf],
  };
}

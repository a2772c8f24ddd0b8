/**
 * What an ORU^R01 says, from what the message row read (result-messages.ts): the lab from the
 * configuration (its name, CLIA number, address and director), the patient, the order and its
 * physician, the result version and the report PDF. Names and dates of birth stay inside the
 * message: nothing here logs them.
 */
import { CovidPcrResult, ElrMode, Hl7MessageDestination, Hl7MessageReason, specimenTypeCode, TestName } from '@platform/domain';
import type { Config } from '../config';
import { dataDate } from '../answer-values';
import type { ElrParts, PostalAddress, ResultOruInput, ResultStatusCode } from './oru';
import type { Hl7Destination } from './interfaces';

/** The columns a message row reads (hl7_messages and what it names). */
export interface MessageSource {
  id: string;
  control_id: string;
  reason: Hl7MessageReason;
  destination: Hl7MessageDestination;
  /** The public-health destination's mode (ELR messages only). */
  elr_mode: ElrMode | null;
  account_id: string | null;
  account_name: string | null;
  created_at: Date;
  receiving_application: string | null;
  receiving_facility: string | null;
  sample_id: string | null;
  barcode: string | null;
  collected_at: Date | null;
  received_at: Date | null;
  rejection_reason: string | null;
  sample_type: string | null;
  patient_id: string | null;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | Date | null;
  sex: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  medical_record_number: string | null;
  order_id: string | null;
  physician_first_name: string | null;
  physician_last_name: string | null;
  npi: string | null;
  physician_phone: string | null;
  test_name: string | null;
  result_id: string | null;
  value: string | null;
  reviewed_at: Date | null;
  correction_reason: string | null;
}

/** MSH-3: the sending application (HD-1, 20 characters). */
export const sendingApplicationOf = (config: Pick<Config, 'brand'>) => `${config.brand} Platform`.slice(0, 20).trim();

/** ISO 3166 alpha-3 (HL7 table 0399) of the countries the product's addresses hold, by their alpha-2. */
const COUNTRY_ALPHA3: Readonly<Record<string, string>> = { US: 'USA', CA: 'CAN', MX: 'MEX', PR: 'PRI', GB: 'GBR' };

/** The lab's one-line address ("street, city, ST 12345") in parts; a line of another form stays whole as the street. */
export function labPostalAddress(line: string): PostalAddress {
  const parts = /^(.+),\s*([^,]+),\s*([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/.exec(line.trim());
  return parts ? { street: parts[1], city: parts[2], state: parts[3], postalCode: parts[4], country: 'USA' } : { street: line.trim() };
}

function labOf(config: Pick<Config, 'brand' | 'lab'>): ResultOruInput['lab'] {
  return {
    application: sendingApplicationOf(config),
    name: config.lab.name,
    cliaNumber: config.lab.cliaNumber,
    address: labPostalAddress(config.lab.address),
    director: config.lab.director ? { familyName: config.lab.director } : null,
  };
}

const SEX_CODES = new Set(['M', 'F', 'O', 'U']);

function patientOf(config: Pick<Config, 'brand' | 'lab'>, row: MessageSource): ResultOruInput['patient'] {
  const lab = { namespaceId: sendingApplicationOf(config), universalId: config.lab.cliaNumber, universalIdType: 'CLIA' };
  const hasAddress = Boolean(row.address_line1 || row.city || row.postal_code);
  return {
    identifiers: [
      { value: String(row.patient_id), typeCode: 'PI', assigningAuthority: lab },
      // The clinic's record number, named by the EHR it goes back to (public health gets the lab's id only).
      ...(row.medical_record_number && row.destination === Hl7MessageDestination.Ehr ? [{ value: row.medical_record_number, typeCode: 'MR', assigningAuthority: { namespaceId: row.receiving_facility ?? 'EHR' } }] : []),
    ],
    name: { familyName: row.last_name ?? '', givenName: row.first_name },
    dateOfBirth: dataDate(row.date_of_birth),
    sex: row.sex && SEX_CODES.has(row.sex) ? (row.sex as ResultOruInput['patient']['sex']) : null,
    address: hasAddress
      ? {
        street: row.address_line1, otherDesignation: row.address_line2, city: row.city, state: row.state, postalCode: row.postal_code,
        country: row.country ? COUNTRY_ALPHA3[row.country] ?? null : null,
      }
      : null,
  };
}

const STATUS_OF_REASON: Readonly<Record<Hl7MessageReason, ResultStatusCode>> = {
  [Hl7MessageReason.Released]: 'F', [Hl7MessageReason.Corrected]: 'C', [Hl7MessageReason.Rejected]: 'X', [Hl7MessageReason.Test]: 'F', [Hl7MessageReason.Order]: 'F',
};

/** When this process started: SFT-6, the software's install date. */
const STARTED_AT = new Date();

/** What a report to public health adds: the ordering facility is the clinic's account (the lab itself for a patient's own order). */
function elrPartsOf(config: Pick<Config, 'brand' | 'lab' | 'buildId'>, row: MessageSource): ElrParts {
  const clinic = row.account_name !== null;
  return {
    acknowledged: row.elr_mode === ElrMode.Mllp,
    software: { vendor: `${config.brand} Platform`, version: config.buildId.slice(0, 15), product: `${config.brand} Platform`, installedOn: STARTED_AT },
    orderingFacility: clinic
      ? { name: row.account_name!, address: null, phone: null }
      : { name: config.lab.name, address: labPostalAddress(config.lab.address), phone: config.lab.phone },
    orderingProviderPhone: row.physician_phone,
    patientPhone: row.phone,
    specimen: { type: specimenTypeCode(row.sample_type), text: row.sample_type },
  };
}

/** The ORU^R01 input of a queued message (a result released, corrected, or its sample rejected; to the EHR or to public health). */
export function resultOruInput(config: Pick<Config, 'brand' | 'lab' | 'buildId'>, row: MessageSource, reportPdf: Buffer | null): ResultOruInput {
  const rejected = row.reason === Hl7MessageReason.Rejected;
  const elr = row.destination === Hl7MessageDestination.PublicHealth ? elrPartsOf(config, row) : undefined;
  return {
    controlId: row.control_id,
    processingId: 'P',
    lab: labOf(config),
    receiver: { application: row.receiving_application ?? '', facility: row.receiving_facility ?? '' },
    patient: patientOf(config, row),
    order: {
      placerOrderNumber: String(row.order_id),
      fillerOrderNumber: row.barcode ?? '',
      testName: row.test_name ?? '',
      orderingProvider: { familyName: row.physician_last_name ?? '', givenName: row.physician_first_name, npi: row.npi },
      collectedAt: row.collected_at,
      receivedAt: row.received_at,
      resultAt: rejected ? row.created_at : row.reviewed_at ?? row.created_at,
    },
    resultStatus: STATUS_OF_REASON[row.reason],
    values: [{ testName: row.test_name ?? '', value: rejected ? null : row.value }],
    correctionReason: rejected ? null : row.correction_reason,
    rejectionReason: rejected ? row.rejection_reason : null,
    reportPdf: rejected || elr ? null : reportPdf,
    ...(elr ? { elr } : {}),
  };
}

/**
 * The admin's test message (MSH-11 T, training): an ORU of a fictitious patient's COVID-19 PCR
 * "Not detected", so an interface analyst sees the lab's real message shape with no real patient.
 */
export function testOruInput(config: Pick<Config, 'brand' | 'lab'>, to: Hl7Destination, controlId: string, at: Date): ResultOruInput {
  const lab = labOf(config);
  return {
    controlId,
    createdAt: at,
    processingId: 'T',
    lab,
    receiver: { application: to.receivingApplication, facility: to.receivingFacility },
    patient: {
      identifiers: [{ value: 'TEST-1', typeCode: 'PI', assigningAuthority: { namespaceId: lab.application, universalId: config.lab.cliaNumber, universalIdType: 'CLIA' } }],
      name: { familyName: 'TEST', givenName: 'PATIENT' },
      dateOfBirth: '2000-01-01',
      sex: 'U',
      address: null,
    },
    order: {
      placerOrderNumber: `TEST-${controlId}`,
      fillerOrderNumber: `TEST-${controlId}`,
      testName: TestName.CovidPcr,
      orderingProvider: { familyName: 'TEST', givenName: 'PROVIDER', npi: null },
      collectedAt: at,
      receivedAt: at,
      resultAt: at,
    },
    resultStatus: 'F',
    values: [{ testName: TestName.CovidPcr, value: CovidPcrResult.NotDetected }],
    reportPdf: null,
  };
}

/**
 * A released, corrected or rejected result as an ORU^R01 of HL7 v2.5.1: MSH, PID, ORC, OBR, one
 * OBX per value (with NTEs for its interpretation), and the lab report PDF as an OBX of type ED.
 * Pure: from a plain input (loaded elsewhere) to an Hl7Message of @medplum/core. The codes come
 * from domain's code table, mapped as the FHIR Observation maps them (server/src/fhir/builders.ts):
 * the test's LOINC code first where it has one, then the lab's; a coded value as CWE (SNOMED CT or
 * the lab's own), an open value as text; a value without a result (sample never received) as
 * status X.
 */
import type { Hl7Field, Hl7Segment } from '@medplum/core';
import { Hl7Message } from '@medplum/core';
import {
  CLIA_OID, ELR_ABNORMAL_FLAGS, ELR_PROFILES, HL7V2_CODING_SYSTEMS, isTestName, LAB_REPORT_DOCUMENT_CODE, NPI_OID, observationCodes, resultInterpretationText, resultValueCode, resultValueText, testCodes,
  type CodeEntry,
} from '@platform/domain';
import { field, HL7_CONTEXT, hl7Date, hl7Timestamp, mshSegment, repeated, segment, type Component } from './fields';

/** HL7 v2.5.1 result status (table 0123 for OBR-25, 0085 for OBX-11): final, corrected, no result. */
export type ResultStatusCode = 'F' | 'C' | 'X';

/** HD: a namespace, and optionally its universal id (an OID) and that id's type. */
export interface HierarchicDesignator {
  namespaceId: string;
  universalId?: string;
  universalIdType?: string;
}

export interface PostalAddress {
  street?: string | null;
  otherDesignation?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

export interface PatientIdentifier {
  value: string;
  assigningAuthority: HierarchicDesignator;
  /** Table 0203: MR (medical record number), PI (patient internal identifier), ... */
  typeCode: string;
}

export interface PersonName {
  familyName: string;
  givenName?: string | null;
}

/**
 * What a report to public health adds (HL7 v2.5.1 ELR implementation guide, Release 1, the PHLIP
 * profile): the profile in MSH-21, the software (SFT), the patient's race and ethnicity as the
 * guide's "unknown" codes (the product does not ask them), phones, the ordering facility
 * (ORC-21..23), order numbers with their assigning lab, and the specimen (SPM). No report PDF.
 */
export interface ElrParts {
  /** PHLabReport-Ack (MLLP: each message acknowledged) or PHLabReport-NoAck (in a batch file). */
  acknowledged: boolean;
  software: { vendor: string; version: string; product: string; installedOn: Date | string };
  orderingFacility: { name: string; address: PostalAddress | null; phone: string | null };
  orderingProviderPhone: string | null;
  patientPhone: string | null;
  /** SPM-4: the specimen's SNOMED CT concept where the table has one, else its name as text. */
  specimen: { type: CodeEntry | null; text: string | null };
}

export interface ResultOruInput {
  /** MSH-10: unique per message sent (a resend is a new message with a new id). */
  controlId: string;
  /** MSH-7; now when absent. */
  createdAt?: Date;
  /** MSH-11: P production, T training (the admin's "Send test message"), D debugging. */
  processingId?: 'P' | 'T' | 'D';
  /** The performing lab: MSH-3 / MSH-4 (with its CLIA number) and OBX-23..25. */
  lab: {
    application: string;
    name: string;
    cliaNumber: string;
    address: PostalAddress;
    director?: PersonName | null;
  };
  /** MSH-5 / MSH-6: the account's EHR, as its interface configuration names it. */
  receiver: { application: string; facility: string };
  patient: {
    identifiers: readonly PatientIdentifier[];
    name: PersonName;
    /** YYYY-MM-DD */
    dateOfBirth: string | null;
    /** Table 0001: M, F, O, U */
    sex: 'M' | 'F' | 'O' | 'U' | null;
    address: PostalAddress | null;
  };
  order: {
    /** ORC-2 / OBR-2: the order id. */
    placerOrderNumber: string;
    /** ORC-3 / OBR-3: the sample's barcode. */
    fillerOrderNumber: string;
    /** OBR-4: the test ordered (a catalogue name; another text is sent as text only). */
    testName: string;
    orderingProvider: PersonName & { npi: string | null };
    collectedAt: Date | string | null;
    receivedAt: Date | string | null;
    /** OBR-22: when this version of the result was released (or the sample rejected). */
    resultAt: Date | string;
  };
  /** OBR-25: F released, C corrected, X rejected (no result). */
  resultStatus: ResultStatusCode;
  /** One OBX each: the test the value is of and the value as the lab stores it (null: no result, the sample was rejected). */
  values: readonly { testName: string; value: string | null; units?: string | null }[];
  /** Why this version corrects the earlier one (an NTE beside each value). */
  correctionReason?: string | null;
  /** Why the sample was rejected (status X: an NTE beside each value). */
  rejectionReason?: string | null;
  /** The lab report, sent as an OBX of type ED (base64). */
  reportPdf: Buffer | null;
  /** Present for a report to public health (ELR). */
  elr?: ElrParts;
}

const HL7_VERSION = '2.5.1';
/** Sent with UTF-8 (the @medplum/hl7 default) so that names keep their accents. */
const CHARACTER_SET = 'UNICODE UTF-8';
const NUMERIC = /^[+-]?\d+(\.\d+)?$/;

// ---------------------------------------------------------------------------------------------
// Data types
// ---------------------------------------------------------------------------------------------

const ts = (at: Date | string | null | undefined): Hl7Field | undefined => (at == null ? undefined : field(hl7Timestamp(at)));

/** HD as one component of subcomponents (inside a CX). */
const hd = (h: HierarchicDesignator): Component => [h.namespaceId, h.universalId, h.universalIdType];

/** CWE (or CE) from the table's codes, primary first (an alternate in components 4-6), with an original text in CWE-9. */
function codedElement(codes: readonly CodeEntry[], originalText?: string): Hl7Field {
  const [primary, alternate] = codes;
  const triplet = (c: CodeEntry | undefined): Component[] => (c ? [c.code, c.display, HL7V2_CODING_SYSTEMS[c.system]] : [undefined, undefined, undefined]);
  return field(...triplet(primary), ...triplet(alternate), undefined, undefined, originalText);
}

function testElement(testName: string, asObservation: boolean): Hl7Field {
  // OBR-4 and OBX-3 are CE in 2.5.1 (no original text component): a name the table lacks goes as CE-2, text only.
  if (!isTestName(testName)) return field(undefined, testName);
  return codedElement(asObservation ? observationCodes(testName) : testCodes(testName));
}

/** XAD; `type` from table 0190 (H home, B business). */
const address = (a: PostalAddress, type: 'H' | 'B'): Hl7Field =>
  field(a.street, a.otherDesignation, a.city, a.state, a.postalCode, a.country, type);

/** The ten digits of a North American number (written with or without +1), or null. */
function northAmericanNumber(written: string): string | null {
  const digits = written.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  return digits.length === 10 && !written.startsWith('+') ? digits : null;
}

/**
 * XTN of a telephone number: a North American number as its area code and local number (XTN-6, -7,
 * as the ELR guide asks), another as it was written (XTN-1). `use` from table 0201 (PRN, WPN).
 */
function telephone(phone: string | null | undefined, use: 'PRN' | 'WPN'): Hl7Field | undefined {
  const written = phone?.trim();
  if (!written) return undefined;
  const national = northAmericanNumber(written);
  if (national) return field(undefined, use, 'PH', undefined, '1', national.slice(0, 3), national.slice(3));
  return field(written, use, 'PH');
}

/** XCN of a provider, identified by NPI where known; nothing for an order without one (the lab's own). */
function provider(p: ResultOruInput['order']['orderingProvider']): Hl7Field | undefined {
  const withNpi = p.npi !== null && p.npi !== '';
  if (!withNpi && !p.familyName) return undefined;
  return field(
    withNpi ? p.npi : undefined, [p.familyName], p.givenName, undefined, undefined, undefined, undefined, undefined,
    withNpi ? ['NPI', NPI_OID, 'ISO'] : undefined, 'L', undefined, undefined, withNpi ? 'NPI' : undefined,
  );
}

/** XON of the performing lab: its name, identified by its CLIA number. */
const labOrganization = (lab: ResultOruInput['lab']): Hl7Field =>
  field(lab.name.slice(0, 50).trim(), 'L', undefined, undefined, undefined, ['CLIA', CLIA_OID, 'ISO'], 'XX', undefined, undefined, lab.cliaNumber);

/**
 * EI of an order number: the number alone. 2.5.1 gives ORC-2/3 and OBR-2/3 22 characters, too few
 * for a namespace and a universal id beside it (ELR's profile, which raises the length, adds them).
 */
const entity = (input: ResultOruInput, id: string): Hl7Field =>
  (input.elr ? field(id, input.lab.application, input.lab.cliaNumber, 'CLIA') : field(id));

// ---------------------------------------------------------------------------------------------
// Segments
// ---------------------------------------------------------------------------------------------

function msh(input: ResultOruInput): Hl7Segment {
  const profile = input.elr && (input.elr.acknowledged ? ELR_PROFILES.acknowledged : ELR_PROFILES.unacknowledged);
  return mshSegment([
    // ELR identifies the sending application with a universal id: the lab's CLIA number.
    /* 3 */ input.elr ? field(input.lab.application, input.lab.cliaNumber, 'CLIA') : field(input.lab.application),
    // HD-1 is 20 characters in 2.5.1: the lab's name shortened; its CLIA number identifies it.
    /* 4 */ field(input.lab.name.slice(0, 20).trim(), input.lab.cliaNumber, 'CLIA'),
    /* 5 */ field(input.receiver.application),
    /* 6 */ field(input.receiver.facility),
    /* 7 */ field(hl7Timestamp(input.createdAt ?? new Date())),
    /* 8 */ undefined,
    /* 9 */ field('ORU', 'R01', 'ORU_R01'),
    /* 10 */ field(input.controlId),
    /* 11 */ field(input.processingId ?? 'P'),
    /* 12 */ field(HL7_VERSION),
    /* 13, 14 */ undefined, undefined,
    // Accept and application acknowledgement (table 0155): ELR over MLLP asks an accept ACK of each message.
    /* 15 */ profile ? field(input.elr!.acknowledged ? 'AL' : 'NE') : undefined,
    /* 16 */ profile ? field('NE') : undefined,
    /* 17 */ profile ? field('USA') : undefined,
    /* 18 */ field(CHARACTER_SET),
    /* 19, 20 */ undefined, undefined,
    /* 21 */ profile ? field(profile.id, undefined, profile.oid, 'ISO') : undefined,
  ]);
}

/** SFT: the software that built the message (ELR requires it). */
function sft(elr: ElrParts): Hl7Segment {
  return segment('SFT', [
    /* 1 */ field(elr.software.vendor.slice(0, 50).trim()),
    /* 2 */ field(elr.software.version),
    /* 3 */ field(elr.software.product),
    /* 4 */ field(elr.software.version),
    /* 5 */ undefined,
    /* 6 */ field(hl7Date(toIsoDate(elr.software.installedOn))),
  ]);
}

const toIsoDate = (at: Date | string): string => (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);

/** The "unknown" answers of the ELR guide for what the product does not ask: race (null flavor UNK) and ethnicity (table 0189 U). */
const UNKNOWN_RACE = () => field('UNK', 'Unknown', 'NULLFL');
const UNKNOWN_ETHNICITY = () => field('U', 'Unknown', 'HL70189');

function pid(p: ResultOruInput['patient'], elr: ElrParts | undefined): Hl7Segment {
  return segment('PID', [
    /* 1 */ field('1'),
    /* 2 */ undefined,
    /* 3 */ repeated(p.identifiers.map((id) => field(id.value, undefined, undefined, hd(id.assigningAuthority), id.typeCode))),
    /* 4 */ undefined,
    /* 5 */ field([p.name.familyName], p.name.givenName, undefined, undefined, undefined, undefined, 'L'),
    /* 6 */ undefined,
    /* 7 */ p.dateOfBirth ? field(hl7Date(p.dateOfBirth)) : undefined,
    /* 8 */ p.sex ? field(p.sex) : undefined,
    /* 9 */ undefined,
    /* 10 */ elr ? UNKNOWN_RACE() : undefined,
    /* 11 */ p.address ? address(p.address, 'H') : undefined,
    /* 12 */ undefined,
    /* 13 */ elr ? telephone(elr.patientPhone, 'PRN') : undefined,
    /* 14..21 */ undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
    /* 22 */ elr ? UNKNOWN_ETHNICITY() : undefined,
  ]);
}

function orc(input: ResultOruInput): Hl7Segment {
  const { order: o, elr } = input;
  return segment('ORC', [
    /* 1 */ field('RE'), // observations to follow
    /* 2 */ entity(input, o.placerOrderNumber),
    /* 3 */ entity(input, o.fillerOrderNumber),
    /* 4..11 */ undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
    /* 12 */ provider(o.orderingProvider),
    /* 13 */ undefined,
    /* 14 */ elr ? telephone(elr.orderingProviderPhone ?? elr.orderingFacility.phone, 'WPN') : undefined,
    /* 15..20 */ undefined, undefined, undefined, undefined, undefined, undefined,
    /* 21 */ elr ? field(elr.orderingFacility.name.slice(0, 50).trim()) : undefined,
    /* 22 */ elr?.orderingFacility.address ? address(elr.orderingFacility.address, 'B') : undefined,
    /* 23 */ elr ? telephone(elr.orderingFacility.phone, 'WPN') : undefined,
  ]);
}

function obr(input: ResultOruInput): Hl7Segment {
  const o = input.order;
  return segment('OBR', [
    /* 1 */ field('1'),
    /* 2 */ entity(input, o.placerOrderNumber),
    /* 3 */ entity(input, o.fillerOrderNumber),
    /* 4 */ testElement(o.testName, false),
    /* 5, 6 */ undefined, undefined,
    /* 7 */ ts(o.collectedAt),
    /* 8..13 */ undefined, undefined, undefined, undefined, undefined, undefined,
    /* 14 */ ts(o.receivedAt),
    /* 15 */ undefined,
    /* 16 */ provider(o.orderingProvider),
    /* 17 */ input.elr ? telephone(input.elr.orderingProviderPhone ?? input.elr.orderingFacility.phone, 'WPN') : undefined,
    /* 18..21 */ undefined, undefined, undefined, undefined,
    /* 22 */ ts(o.resultAt),
    /* 23, 24 */ undefined, undefined,
    /* 25 */ field(input.resultStatus),
  ]);
}

/** OBX-2 and OBX-5 of a value: coded (CWE), numeric (NM), text (ST), or nothing when there is no result. */
function observationValue(testName: string, value: string | null): { type?: string; value?: Hl7Field; noResult: boolean } {
  if (value === null) return { noResult: true };
  const coded = resultValueCode(value);
  if (coded?.noResult) return { noResult: true };
  if (coded) return { type: 'CWE', value: codedElement([coded.code], resultValueText(testName, value)), noResult: false };
  return { type: NUMERIC.test(value) ? 'NM' : 'ST', value: field(value), noResult: false };
}

interface ObxFields {
  setId: number;
  type?: string;
  code: Hl7Field;
  value?: Hl7Field;
  units?: string | null;
  abnormalFlag?: Hl7Field;
  status: ResultStatusCode;
}

function obx(input: ResultOruInput, f: ObxFields): Hl7Segment {
  return segment('OBX', [
    /* 1 */ field(String(f.setId)),
    /* 2 */ f.type ? field(f.type) : undefined,
    /* 3 */ f.code,
    /* 4 */ undefined,
    /* 5 */ f.value,
    /* 6 */ f.units ? field(f.units) : undefined,
    /* 7 */ undefined,
    /* 8 */ f.abnormalFlag,
    /* 9, 10 */ undefined, undefined,
    /* 11 */ field(f.status),
    /* 12, 13 */ undefined, undefined,
    /* 14 */ ts(input.order.collectedAt),
    /* 15..18 */ undefined, undefined, undefined, undefined,
    /* 19 */ ts(input.order.resultAt),
    /* 20..22 */ undefined, undefined, undefined,
    /* 23 */ labOrganization(input.lab),
    /* 24 */ address(input.lab.address, 'B'),
    /* 25 */ input.lab.director ? field(undefined, [input.lab.director.familyName], input.lab.director.givenName) : undefined,
  ]);
}

/** OBX-8: ELR's table 0078 flags (A abnormal, N normal); else the value's interpretation code. */
function abnormalFlag(input: ResultOruInput, value: string | null): Hl7Field | undefined {
  if (value === null) return undefined;
  if (input.elr) {
    // IS in 2.5.1 (5 characters): the code alone.
    const flag = ELR_ABNORMAL_FLAGS[value];
    return flag ? field(flag.code) : undefined;
  }
  const code = resultValueCode(value)?.interpretation?.code;
  return code ? field(code) : undefined;
}

/** NTE-2 source L: the comment comes from the lab (the filler). */
const nte = (setId: number, text: string): Hl7Segment => segment('NTE', [field(String(setId)), field('L'), field(text)]);

/** The OBX of one value and the NTEs that belong to it (no result, correction, interpretation). */
function valueSegments(input: ResultOruInput, v: ResultOruInput['values'][number], setId: number): Hl7Segment[] {
  const shown = observationValue(v.testName, v.value);
  const status: ResultStatusCode = shown.noResult || input.resultStatus === 'X' ? 'X' : input.resultStatus;
  const notes = [
    ...(shown.noResult && v.value !== null ? [resultValueText(v.testName, v.value)] : []),
    ...(input.rejectionReason?.trim() ? [`Specimen rejected: ${input.rejectionReason.trim()}`] : []),
    ...(input.correctionReason?.trim() ? [`Corrected result: ${input.correctionReason.trim()}`] : []),
    ...(v.value === null ? [] : [resultInterpretationText(v.testName, v.value)].filter((t): t is string => t !== null)),
  ];
  return [
    obx(input, {
      setId, type: shown.type, code: testElement(v.testName, true), value: shown.value, units: v.units,
      abnormalFlag: abnormalFlag(input, v.value), status,
    }),
    ...notes.map((text, i) => nte(i + 1, text)),
  ];
}

/**
 * ED-2 / ED-3 of a PDF in 2.5.1: AP (other application data, table 0191) and PDF (table 0291). The
 * MIME form (application / pdf) comes with table 0834 in v2.6; 2.5.1 allows 9 characters in ED-2.
 */
const PDF_DATA_TYPE = { type: 'AP', subtype: 'PDF' } as const;

/** The report PDF: ED, base64 (table 0299). */
function reportSegment(input: ResultOruInput, pdf: Buffer, setId: number): Hl7Segment {
  return obx(input, {
    setId, type: 'ED', code: codedElement([LAB_REPORT_DOCUMENT_CODE]),
    value: field(undefined, PDF_DATA_TYPE.type, PDF_DATA_TYPE.subtype, 'Base64', pdf.toString('base64')), status: input.resultStatus,
  });
}

/** SPM (ELR): the specimen, identified by the order and the barcode, its type, when it was collected and received. */
function spm(input: ResultOruInput, elr: ElrParts): Hl7Segment {
  const o = input.order;
  const ei = (id: string) => [id, input.lab.application, input.lab.cliaNumber, 'CLIA'];
  const type = elr.specimen.type ? codedElement([elr.specimen.type], elr.specimen.text ?? undefined) : field(undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, elr.specimen.text);
  return segment('SPM', [
    /* 1 */ field('1'),
    /* 2 */ field(ei(o.placerOrderNumber), ei(o.fillerOrderNumber)),
    /* 3 */ undefined,
    /* 4 */ type,
    /* 5..16 */ undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
    /* 17 */ o.collectedAt == null ? undefined : field(hl7Timestamp(o.collectedAt)),
    /* 18 */ ts(o.receivedAt),
  ]);
}

/** The ORU^R01 of one ordered test's result version (to the EHR, or with `elr` to public health). */
export function buildResultOru(input: ResultOruInput): Hl7Message {
  const observations = input.values.flatMap((v, i) => valueSegments(input, v, i + 1));
  const report = input.reportPdf && !input.elr ? [reportSegment(input, input.reportPdf, input.values.length + 1)] : [];
  const software = input.elr ? [sft(input.elr)] : [];
  const specimen = input.elr ? [spm(input, input.elr)] : [];
  return new Hl7Message([msh(input), ...software, pid(input.patient, input.elr), orc(input), obr(input), ...observations, ...report, ...specimen], HL7_CONTEXT);
}

/**
 * HL7 v2 acknowledgements: reading the ACK a peer answers (MSA, ERR) and building the ACK we answer
 * to a message we received (AA, or AE / AR with an ERR segment naming the field and the reason).
 */
import type { Hl7Segment } from '@medplum/core';
import { Hl7Message } from '@medplum/core';
import { componentText, field, HL7_CONTEXT, hl7Timestamp, mshSegment, segment } from './fields';

/** Table 0008: application accept / error / reject, and the commit-level (enhanced mode) codes. */
export const ACK_CODES = ['AA', 'AE', 'AR', 'CA', 'CE', 'CR'] as const;
export type AckCode = (typeof ACK_CODES)[number];

/** Where in a message an error is (ERR-2, ERL): segment id, its sequence, field, component. */
export interface ErrorLocation {
  segment: string;
  /** Which occurrence of the segment (1 for the first). */
  sequence?: number;
  field?: number;
  component?: number;
}

export interface AckError {
  /** ERR-2 written as PID-3 / OBR-4.1, or null when the ERR names no place. */
  location: string | null;
  /** ERR-3.1: the HL7 error code (table 0357). */
  code: string;
  /** ERR-8 (the message for a person), else ERR-3.2. */
  text: string;
}

export interface Ack {
  code: AckCode;
  /** MSA-3 */
  text: string;
  /** MSA-2: the control id of the message acknowledged. */
  controlId: string;
  errors: AckError[];
}

/** The message answered is not an ACK we can read (no MSA, or an MSA-1 outside table 0008). */
export class Hl7InvalidAck extends Error {
  constructor(reason: string) {
    super(`Not a readable HL7 acknowledgement: ${reason}`);
    this.name = 'Hl7InvalidAck';
  }
}

/** Table 0357: the error codes an answer of ours uses. */
export const Hl7ErrorCode = {
  SegmentSequenceError: { code: '100', text: 'Segment sequence error' },
  RequiredFieldMissing: { code: '101', text: 'Required field missing' },
  DataTypeError: { code: '102', text: 'Data type error' },
  TableValueNotFound: { code: '103', text: 'Table value not found' },
  UnsupportedMessageType: { code: '200', text: 'Unsupported message type' },
  UnsupportedEventCode: { code: '201', text: 'Unsupported event code' },
  UnsupportedProcessingId: { code: '202', text: 'Unsupported processing id' },
  UnsupportedVersionId: { code: '203', text: 'Unsupported version id' },
  UnknownKeyIdentifier: { code: '204', text: 'Unknown key identifier' },
  DuplicateKeyIdentifier: { code: '205', text: 'Duplicate key identifier' },
  ApplicationInternalError: { code: '207', text: 'Application internal error' },
} as const;
export type Hl7ErrorCode = (typeof Hl7ErrorCode)[keyof typeof Hl7ErrorCode];

const isAckCode = (v: string): v is AckCode => (ACK_CODES as readonly string[]).includes(v);

function errorLocationText(err: Hl7Segment): string | null {
  const [seg, , fieldNo, , comp] = [1, 2, 3, 4, 5].map((c) => componentText(err, 2, c));
  if (!seg) return null;
  return `${seg}${fieldNo ? `-${fieldNo}` : ''}${comp ? `.${comp}` : ''}`;
}

function readError(err: Hl7Segment): AckError {
  return {
    location: errorLocationText(err),
    code: componentText(err, 3, 1),
    text: componentText(err, 8) || componentText(err, 3, 2),
  };
}

/** What an ACK says: MSA-1, MSA-3, MSA-2 and its ERR segments. */
export function readAck(message: Hl7Message): Ack {
  const msa = message.getSegment('MSA');
  if (!msa) throw new Hl7InvalidAck('no MSA segment');
  const code = componentText(msa, 1).toUpperCase();
  if (!isAckCode(code)) throw new Hl7InvalidAck(`MSA-1 is not an acknowledgement code (table 0008)`);
  return {
    code,
    text: componentText(msa, 3),
    controlId: componentText(msa, 2),
    errors: message.getAllSegments('ERR').map(readError),
  };
}

/** What to answer: accepted, or an error / a rejection naming where and why. */
export type AckAnswer =
  | { code: 'AA'; text?: string }
  | { code: 'AE' | 'AR'; error: { location: ErrorLocation | null; hl7Error: Hl7ErrorCode; reason: string } };

export interface AckOptions {
  /** MSH-10 of the ACK; a fresh one when absent. */
  controlId?: string;
  createdAt?: Date;
}

/** ERR of 2.5.1: ERR-2 location (ERL), ERR-3 code (CWE, table 0357), ERR-4 severity E, ERR-8 the reason for a person. */
function errSegment(e: Extract<AckAnswer, { error: unknown }>['error']): Hl7Segment {
  const at = e.location;
  return segment('ERR', [
    /* 1 */ undefined,
    /* 2 */ at ? field(at.segment, String(at.sequence ?? 1), at.field === undefined ? undefined : String(at.field), undefined, at.component === undefined ? undefined : String(at.component)) : undefined,
    /* 3 */ field(e.hl7Error.code, e.hl7Error.text, 'HL70357'),
    /* 4 */ field('E'),
    /* 5..7 */ undefined, undefined, undefined,
    /* 8 */ field(e.reason),
  ]);
}

let ackSequence = 0;
/** A control id unique enough for our answers: time plus a counter, within ST's 20 characters. */
const freshControlId = () => `A${Date.now()}${String(ackSequence++ % 1000).padStart(3, '0')}`;

/** The ACK to a message we received: MSH mirrored (sender and receiver swapped, ACK^<its event>^ACK), MSA, and an ERR for AE / AR. */
export function buildAck(received: Hl7Message, answer: AckAnswer, options: AckOptions = {}): Hl7Message {
  const msh = received.getSegment('MSH');
  const text = (i: number, c = 1) => componentText(msh, i, c);
  const hdOf = (i: number) => field(text(i, 1), text(i, 2), text(i, 3));
  const event = text(9, 2);
  const header = mshSegment([
    /* 3 */ hdOf(5),
    /* 4 */ hdOf(6),
    /* 5 */ hdOf(3),
    /* 6 */ hdOf(4),
    /* 7 */ field(hl7Timestamp(options.createdAt ?? new Date())),
    /* 8 */ undefined,
    /* 9 */ event ? field('ACK', event, 'ACK') : field('ACK'),
    /* 10 */ field(options.controlId ?? freshControlId()),
    /* 11 */ field(text(11) || 'P'),
    /* 12 */ field(text(12) || '2.5.1'),
  ]);
  // MSA-3 is 80 characters at most; the whole reason is in ERR-8.
  const msaText = (answer.code === 'AA' ? answer.text : answer.error.reason)?.slice(0, 80);
  const msa = segment('MSA', [field(answer.code), field(text(10)), msaText ? field(msaText) : undefined]);
  return new Hl7Message([header, msa, ...(answer.code === 'AA' ? [] : [errSegment(answer.error)])], HL7_CONTEXT);
}

/** What the HL7 interface page is answered: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { HL7_MESSAGE_REASONS, HL7_MESSAGE_STATUSES } from './hl7-messages';

/** GET …/hl7-interface: the account's connection (an account without one answers `configured: false` and the defaults). */
export const Hl7InterfaceView = s.object({
  accountId: s.integer,
  configured: s.boolean,
  enabled: s.boolean,
  host: s.string,
  port: s.nullable(s.integer),
  receivingApplication: s.string,
  receivingFacility: s.string,
  sendingFacilityOfOrders: s.nullable(s.string),
  updatedAt: s.nullable(s.string),
});
export type Hl7InterfaceView = s.Infer<typeof Hl7InterfaceView>;

/** GET …/hl7-messages (each): one message sent to the account's EHR and how it went. */
export const Hl7MessageView = s.object({
  id: s.integer,
  /** MSH-10: a resend is a new message with a new control id. */
  controlId: s.string,
  messageType: s.string,
  reason: s.oneOf(HL7_MESSAGE_REASONS),
  /** The sample's barcode (null for the test message). */
  sample: s.nullable(s.string),
  test: s.nullable(s.string),
  status: s.oneOf(HL7_MESSAGE_STATUSES),
  createdAt: s.string,
  attempts: s.integer,
  lastAttemptAt: s.nullable(s.string),
  /** MSA-1 of the last answer (AA, AE, AR …), null when none came. */
  ackCode: s.nullable(s.string),
  /** MSA-3 of the last answer, or why no answer came. */
  ackText: s.nullable(s.string),
  acknowledgedAt: s.nullable(s.string),
});
export type Hl7MessageView = s.Infer<typeof Hl7MessageView>;

/** What the HL7 interface page is answered: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { HL7_MESSAGE_REASONS, HL7_MESSAGE_STATUSES } from './hl7-messages';
import { ELR_MODES } from './elr';

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

/** GET /api/admin/public-health/elr: where COVID-19 results are reported (`configured: false` and the defaults before the first PUT). */
export const ElrSettingsView = s.object({
  configured: s.boolean,
  enabled: s.boolean,
  mode: s.oneOf(ELR_MODES),
  host: s.nullable(s.string),
  port: s.nullable(s.integer),
  folder: s.nullable(s.string),
  receivingApplication: s.string,
  receivingFacility: s.string,
  updatedAt: s.nullable(s.string),
});
export type ElrSettingsView = s.Infer<typeof ElrSettingsView>;

/** One day of the ELR report: the results reported that day and how far each got. */
export const ElrDayView = s.object({
  /** YYYY-MM-DD (UTC), the day the result was released, corrected or rejected. */
  day: s.string,
  /** Messages queued for public health that day. */
  reported: s.integer,
  /** Sent over MLLP (at least once) or written to a batch file. */
  sent: s.integer,
  acknowledged: s.integer,
  /** Written to a batch file (a file is not acknowledged message by message). */
  batched: s.integer,
  failed: s.integer,
  pending: s.integer,
});
export type ElrDayView = s.Infer<typeof ElrDayView>;

/** A batch file written (or waiting to be written) to the folder. */
export const ElrBatchView = s.object({
  id: s.integer,
  fileName: s.string,
  messages: s.integer,
  createdAt: s.string,
  /** When the file reached the folder; null while it waits (the folder could not be written yet). */
  writtenAt: s.nullable(s.string),
});
export type ElrBatchView = s.Infer<typeof ElrBatchView>;

/** GET /api/admin/public-health/elr/report: per day, the latest batch files, the latest messages. */
export const ElrReportView = s.object({
  days: s.array(ElrDayView),
  batches: s.array(ElrBatchView),
  messages: s.array(Hl7MessageView),
});
export type ElrReportView = s.Infer<typeof ElrReportView>;

/**
 * HL7 v2 interfaces of an account (issue 28): results sent to the clinic's EHR as ORU^R01 over
 * MLLP, how long a message is retried, and what the message log says.
 */
import { valuesOf } from '../shared/values';

/**
 * Pending until the receiver answers AA; Failed after the last attempt (AE, AR or no answer);
 * Batched once written to public health's daily batch file (nobody answers a file message by message).
 */
export const Hl7MessageStatus = { Pending: 'Pending', Acknowledged: 'Acknowledged', Failed: 'Failed', Batched: 'Batched' } as const;
export type Hl7MessageStatus = (typeof Hl7MessageStatus)[keyof typeof Hl7MessageStatus];
export const HL7_MESSAGE_STATUSES = valuesOf(Hl7MessageStatus);

/** Why a message was sent: a result released, corrected, or its sample rejected; the admin's test message; an order received from the EHR. */
export const Hl7MessageReason = { Released: 'released', Corrected: 'corrected', Rejected: 'rejected', Test: 'test', Order: 'order' } as const;
export type Hl7MessageReason = (typeof Hl7MessageReason)[keyof typeof Hl7MessageReason];
export const HL7_MESSAGE_REASONS = valuesOf(Hl7MessageReason);

/** The receiver has this long to acknowledge a message; no ACK is a failed attempt. */
export const HL7_ACK_TIMEOUT_MS = 30_000;
/**
 * Attempts of one message, with exponential back-off from HL7_RETRY_BASE_MS (45 s), as for a
 * webhook: the last comes about 25.6 hours after the first, so an EHR down for a day gets every result.
 */
export const HL7_ATTEMPTS = 12;
export const DEFAULT_HL7_RETRY_BASE_MS = 45_000;
/** Messages an account's log shows, newest first. */
export const HL7_LOG_SIZE = 50;
/** HD-1 (an application's or facility's namespace id) is 20 characters in HL7 v2.5.1. */
export const HL7_NAMESPACE_MAX_LENGTH = 20;

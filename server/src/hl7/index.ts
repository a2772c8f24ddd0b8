/** HL7 v2.5.1 interfaces: messages built and read with @medplum/core, sent and received over MLLP with @medplum/hl7. */
export { buildResultOru, type ElrParts, type ResultOruInput, type ResultStatusCode, type HierarchicDesignator, type PatientIdentifier, type PersonName, type PostalAddress } from './oru';
export {
  ACK_CODES, buildAck, Hl7ErrorCode, Hl7InvalidAck, readAck, type Ack, type AckAnswer, type AckCode, type AckError, type AckOptions, type ErrorLocation,
} from './ack';
export {
  Hl7NoAnswer, sendOverMllp, startMllpListener, type MllpListener, type MllpListenerOptions, type MllpMessageHandler, type MllpSendOptions, type NoAnswerReason,
} from './mllp';
export { componentText, escapeHl7, hl7Date, hl7Timestamp, unescapeHl7 } from './fields';
export { enabledHl7Destination, getHl7Interface, putHl7Interface, type Hl7Destination } from './interfaces';
export {
  attemptHl7Send, finishHl7Message, hl7MessageView, listHl7Messages, ORU_R01, queueResultMessages, resendHl7Message,
  type Hl7MessageScope, type Hl7SendHooks, type Hl7SendOutcome,
} from './result-messages';
export { elrReport, getElrSettings, putElrSettings } from './public-health';
export { writeDueElrBatches, writeElrBatchFiles, writeElrBatchNow } from './elr-batches';
export { labPostalAddress, resultOruInput, testOruInput, type MessageSource } from './result-input';
export { sendHl7TestMessage } from './test-message';

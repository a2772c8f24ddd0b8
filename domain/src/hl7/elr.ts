/**
 * Electronic lab reporting (issue 28, item 4): every released, corrected or rejected COVID-19
 * result of a named patient goes to the public-health destination the lab's admin configures, as
 * an ORU^R01 of the HL7 v2.5.1 ELR implementation guide (Release 1, PHLIP profile), over MLLP or
 * in a daily batch file (FHS/BHS).
 */
import { TestName } from '../catalogue/tests';
import { CovidPcrResult } from '../results/result-values';
import { valuesOf } from '../shared/values';

/** How reports reach public health: one message at a time over MLLP, or one file a day. */
export const ElrMode = { Mllp: 'mllp', BatchFile: 'batch-file' } as const;
export type ElrMode = (typeof ElrMode)[keyof typeof ElrMode];
export const ELR_MODES = valuesOf(ElrMode);

/** Where an HL7 message goes: the account's EHR, or the public-health agency. */
export const Hl7MessageDestination = { Ehr: 'ehr', PublicHealth: 'public-health' } as const;
export type Hl7MessageDestination = (typeof Hl7MessageDestination)[keyof typeof Hl7MessageDestination];
export const HL7_MESSAGE_DESTINATIONS = valuesOf(Hl7MessageDestination);

/** The tests whose results public health receives (SARS-CoV-2 is reportable in every US jurisdiction). */
export const ELR_TESTS: readonly TestName[] = [TestName.CovidPcr, TestName.CovidRapid];

/**
 * OBX-8 of an ELR result (HL7 table 0078): a detected pathogen is abnormal, its absence normal;
 * an indeterminate or invalid result carries no flag.
 */
export const ELR_ABNORMAL_FLAGS: Readonly<Partial<Record<string, { code: string; display: string }>>> = {
  [CovidPcrResult.Detected]: { code: 'A', display: 'Abnormal' },
  [CovidPcrResult.NotDetected]: { code: 'N', display: 'Normal' },
};

/**
 * MSH-21 of the ELR guide: PHLabReport-Ack when each message is acknowledged (MLLP), NoAck when it
 * travels in a batch file that nobody answers message by message.
 */
export const ELR_PROFILES = {
  acknowledged: { id: 'PHLabReport-Ack', oid: '2.16.840.1.113883.9.10' },
  unacknowledged: { id: 'PHLabReport-NoAck', oid: '2.16.840.1.113883.9.11' },
} as const;

/** Days the admin's report of what was sent and acknowledged covers, newest first. */
export const ELR_REPORT_DAYS = 30;
/** How often a worker looks for a finished day's messages to write as its batch file. */
export const ELR_BATCH_SCAN_INTERVAL_MS = 5 * 60_000;

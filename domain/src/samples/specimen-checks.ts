/**
 * What intake checks of a specimen before it is received (42 CFR 493.1242 specimen acceptability
 * and rejection criteria, 493.1283 specimen records): its condition, when it was collected, and
 * that the tube names the patient of its requisition. docs/intake.md says why each rule is so.
 */
import { valuesOf } from '../shared/values';
import { formatDateTime } from '../shared/lab-clock';
import { RejectionReason } from './statuses';

/** The specimen's condition as the technician finds it at the bench (samples.condition). */
export const SpecimenCondition = {
  Acceptable: 'acceptable',
  Leaked: 'leaked',
  Damaged: 'damaged',
  Insufficient: 'insufficient',
  WrongContainer: 'wrong container',
  Unlabelled: 'unlabelled',
} as const;
export type SpecimenCondition = (typeof SpecimenCondition)[keyof typeof SpecimenCondition];
export const SPECIMEN_CONDITIONS = valuesOf(SpecimenCondition);

export const SPECIMEN_CONDITION_LABELS: Record<SpecimenCondition, string> = {
  acceptable: 'Acceptable',
  leaked: 'Leaked',
  damaged: 'Damaged',
  insufficient: 'Insufficient',
  'wrong container': 'Wrong container',
  unlabelled: 'Unlabelled',
};

/** May a specimen in this condition be received: yes; only with a note saying why it is tested anyway; never (reject it). */
export type ReceiveRule = 'receive' | 'receive with a note' | 'reject';

export interface ConditionRule {
  receive: ReceiveRule;
  /** The spec's rejection reason intake offers for this condition (null: acceptable, nothing to reject for). */
  rejectionReason: RejectionReason | null;
  /** Why, in a sentence the technician reads when the condition is chosen. */
  why: string;
}

/**
 * The lab's rule per condition (docs/intake.md). The spec's list has four reasons; the condition
 * itself goes on the sample's timeline beside the reason, so the clinic reads both.
 */
export const CONDITION_RULES: Record<SpecimenCondition, ConditionRule> = {
  acceptable: { receive: 'receive', rejectionReason: null, why: 'The specimen can be tested.' },
  leaked: {
    receive: 'reject',
    rejectionReason: RejectionReason.QuantityNotSufficient,
    why: 'A leaked tube lost specimen and may be contaminated: it is rejected.',
  },
  damaged: {
    receive: 'reject',
    rejectionReason: RejectionReason.QuantityNotSufficient,
    why: 'A damaged container cannot keep the specimen intact: it is rejected.',
  },
  insufficient: {
    receive: 'receive with a note',
    rejectionReason: RejectionReason.QuantityNotSufficient,
    why: 'Too little specimen is rejected, unless the lab decides to test it anyway (DNA yield is checked at extraction): then say why in a note.',
  },
  'wrong container': {
    receive: 'reject',
    rejectionReason: RejectionReason.SampleNotReceived,
    why: 'A specimen in a container the test is not validated for is not the sample the test needs: it is rejected.',
  },
  unlabelled: {
    receive: 'reject',
    rejectionReason: RejectionReason.IdentificationMismatch,
    why: 'A tube without the patient’s name and date of birth cannot be matched to its requisition: it is rejected.',
  },
};

/** The longest condition note. */
export const CONDITION_NOTE_MAX_LENGTH = 500;

/** Why a specimen in this condition cannot be received as asked (null: it can). */
export function receiveConditionProblem(condition: SpecimenCondition, note: string | null | undefined): string | null {
  const rule = CONDITION_RULES[condition];
  if (rule.receive === 'reject') return `A ${SPECIMEN_CONDITION_LABELS[condition].toLowerCase()} specimen cannot be received: reject it (${rule.rejectionReason})`;
  if (rule.receive === 'receive with a note' && !note?.trim()) {
    return `An ${SPECIMEN_CONDITION_LABELS[condition].toLowerCase()} specimen is received only with a note saying why it is tested anyway`;
  }
  return null;
}

/**
 * How long before the order was placed a collection may be: a clinic collects at the visit and
 * may place the order in the portal afterwards, the same day or the next.
 */
export const COLLECTION_BEFORE_ORDER_GRACE_MS = 24 * 3_600_000;
/** How far in the future a collection time may be (clock differences between machines). */
export const COLLECTION_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Why a collection time cannot be right (null: it can be): not in the future, not more than a day
 * before the order was placed (COLLECTION_BEFORE_ORDER_GRACE_MS), not after the kit was received.
 */
export function collectionTimeProblem(collectedAt: Date, context: { orderedAt: Date; receivedAt?: Date | null; now?: Date; timeZone: string }): string | null {
  const now = context.now ?? new Date();
  if (collectedAt.getTime() > now.getTime() + COLLECTION_CLOCK_SKEW_MS) return 'The collection time cannot be in the future';
  if (collectedAt.getTime() < context.orderedAt.getTime() - COLLECTION_BEFORE_ORDER_GRACE_MS) {
    return `The collection time cannot be more than 24 hours before the order was placed (${formatDateTime(context.orderedAt, context.timeZone)})`;
  }
  if (context.receivedAt && collectedAt.getTime() > context.receivedAt.getTime()) return 'The collection time cannot be after the kit was received';
  return null;
}

/** What the intake check of a kit recorded, for its timeline. */
export interface IntakeCheck {
  condition: SpecimenCondition;
  note?: string | null;
  collectedAt: Date | null;
  /** True: the name and date of birth on the tube were confirmed against the requisition; null: the kit has none. */
  identityConfirmed: boolean | null;
}

/** The timeline's words for an intake check: "Intake check: specimen leaked · collected … · …" (times on the lab's clock, `zone`). */
export function describeIntakeCheck(check: IntakeCheck, zone: string): string {
  const parts = [`Intake check: specimen ${check.condition}`];
  if (check.note?.trim()) parts.push(`note: ${check.note.trim()}`);
  parts.push(check.collectedAt ? `collected ${formatDateTime(check.collectedAt, zone)}` : 'collection time not known');
  if (check.identityConfirmed === true) parts.push('name and date of birth on the tube confirmed against the requisition');
  if (check.identityConfirmed === false) parts.push('name and date of birth on the tube not confirmed');
  return parts.join(' · ');
}

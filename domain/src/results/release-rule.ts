/**
 * The release rule, once: whether a lab user may release (approve) a result waiting in review.
 * The review list shows Approve only where this says yes, and every approve command refuses
 * what this refuses, with the same words.
 */
import { isTestName } from '../catalogue/catalogue';
import { DNA_QC_HOLDS_RELEASE, dnaHoldMessage, type DnaQc, flaggedExtractionMessage } from '../extractions/dna-extraction';
import { describeSampleStatus, workStatusOf } from '../samples/lifecycle';
import { SampleStatus, type SampleStatus as Status } from '../samples/statuses';
import { TestResultStatus } from './result-values';
import { APPROVAL_GROUP_TESTS, type ApprovalGroup, approvalGroupOf, SELF_APPROVAL_MESSAGE } from './review';

export interface ReleaseCandidate {
  resultId: number;
  resultStatus: string;
  testName: string;
  enteredByUserId: number;
  barcode: string;
  sampleStatus: Status;
  /** While the sample is In Storage: the status it goes back to (its lab work goes on while it is stored). */
  statusBeforeStorage: Status | null;
  /** The test already has a released version: releasing this one corrects it. */
  correction: boolean;
  /** The PCR plate the result was read on, with its control check; null for an imported result. */
  plate: { name: string; ok: boolean; problems: string[] } | null;
  /** The DNA extraction the result records (label as imported, flags outside the acceptance range); absent for other results. */
  extraction?: { label: string; flags: readonly string[] } | null;
  /** The sample's DNA state by its newest extraction (absent or null: none imported). */
  sampleDna?: SampleDna | null;
}

/** A sample's DNA state as the release rule and the review list read it. */
export interface SampleDna {
  label: string;
  qc: DnaQc;
  flags: readonly string[];
}

export type ReleaseRefusalKind = 'wrong-group' | 'own-result' | 'not-in-review' | 'sample-status' | 'controls-failed' | 'extraction-flagged' | 'dna-held';
export type ReleaseDecision = { ok: true } | { ok: false; kind: ReleaseRefusalKind; message: string };

/**
 * May `reviewerUserId` release this result? `group` is the approval endpoint asked for; without
 * one, the test's own group is assumed (the review list).
 */
export function canRelease(c: ReleaseCandidate, reviewerUserId: number, group?: ApprovalGroup): ReleaseDecision {
  const own = isTestName(c.testName) ? approvalGroupOf(c.testName) : null;
  const asked = group ?? own;
  if (!asked || !APPROVAL_GROUP_TESTS[asked].includes(c.testName as never)) {
    return { ok: false, kind: 'wrong-group', message: `Result ${c.resultId} is a ${c.testName} result${own ? `: approve it with approve-tests-${own}` : ''}` };
  }
  if (c.enteredByUserId === reviewerUserId) return { ok: false, kind: 'own-result', message: SELF_APPROVAL_MESSAGE };
  if (c.resultStatus !== TestResultStatus.InReview) {
    return { ok: false, kind: 'not-in-review', message: `Result ${c.resultId} (${c.barcode}) is ${c.resultStatus}: only results in review can be approved` };
  }
  // A sample In Storage counts by the status it goes back to: its result is released while it stays stored.
  const work = workStatusOf({ status: c.sampleStatus, statusBeforeStorage: c.statusBeforeStorage });
  const correctable = c.correction && work !== SampleStatus.Rejected && work !== SampleStatus.Discarded;
  if (work !== SampleStatus.InTesting && !correctable) {
    const status = describeSampleStatus({ status: c.sampleStatus, statusBeforeStorage: c.statusBeforeStorage });
    return { ok: false, kind: 'sample-status', message: `Sample ${c.barcode} is ${status}: its result cannot be released` };
  }
  if (c.plate && !c.plate.ok) {
    return { ok: false, kind: 'controls-failed', message: `Plate ${c.plate.name} cannot be released: its controls failed (${c.plate.problems.join('; ')})` };
  }
  // A flagged extraction is never released: the lab sends the sample to re-extraction or rejects it.
  if (c.extraction && c.extraction.flags.length > 0) {
    return { ok: false, kind: 'extraction-flagged', message: flaggedExtractionMessage(c.extraction.label, c.extraction.flags) };
  }
  // A result read from DNA that failed its check (or waits for a new extraction) is never released.
  if (!c.extraction && c.sampleDna && DNA_QC_HOLDS_RELEASE.includes(c.sampleDna.qc)) {
    return { ok: false, kind: 'dna-held', message: dnaHoldMessage(c.barcode, c.testName, c.sampleDna) };
  }
  return { ok: true };
}

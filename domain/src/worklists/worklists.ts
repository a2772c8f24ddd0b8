/**
 * Worklists (issue 30, part 5; docs/worklists.md): the lab's samples waiting for work, by test and
 * oldest receipt first, with those past their test's turnaround target marked (the target and the
 * rule are turnaround's); and what needs a clinic, counted for its home page. Joi-free for the SPA
 * (the request schemas are in worklist-schemas.ts).
 */
import * as s from '../shared/shapes';
import { SampleStatus } from '../samples/statuses';
import { OverdueByTest } from '../turnaround/turnaround';

/**
 * The statuses on the lab's worklist (SPEC's names): received and not yet resulted. A sample In
 * Storage is on it by the status it left for storage (its lab work is still to do).
 */
export const WORKLIST_STATUSES = [SampleStatus.InQueue, SampleStatus.InTesting] as const;
export type WorklistStatus = (typeof WORKLIST_STATUSES)[number];

/** GET /api/lab-toolbox/worklist: one test of one sample waiting for the lab (a sample with two tests is on the list once per test). */
export const LabWorklistRow = s.object({
  sampleId: s.integer,
  barcode: s.string,
  testName: s.string,
  /** Where it is: In Queue, In Testing, or In Storage with the status it goes back to. */
  status: s.string,
  /** In Queue or In Testing (for a stored sample, the status it left). */
  workStatus: s.oneOf(WORKLIST_STATUSES),
  sampleType: s.nullable(s.string),
  accountName: s.nullable(s.string),
  /** First name and last initial, or a research participant's study id. */
  patient: s.string,
  receivedAt: s.string,
  hoursSinceReceipt: s.number,
  /** The lab admin's target for the test, receipt → result, in hours; null when none is set. */
  targetHours: s.nullable(s.integer),
  /** Received longer ago than the test's target (turnaround's rule). */
  pastTarget: s.boolean,
});
export type LabWorklistRow = s.Infer<typeof LabWorklistRow>;

/** Per test: the samples waiting and how many of them are past the target (the turnaround dashboard's open counts). */
export const WorklistTestCount = s.pick(OverdueByTest, ['testName', 'targetHours', 'open', 'openPastTarget']);
export type WorklistTestCount = s.Infer<typeof WorklistTestCount>;

/** GET /api/lab-toolbox/worklist/tests: every test with a sample waiting. */
export const LabWorklistTests = s.array(WorklistTestCount);

/**
 * GET /api/provider-clinic/{accountId}/needs: what waits for the clinic, counted in one read.
 * - resultsToReview: samples with a released result held from the patient until the clinic's
 *   review (patient release policy "To the clinic first"; docs/patient-release.md);
 * - ordersAwaitingSignOff: patients' own orders, paid or covered, waiting for a physician's sign-off;
 * - kitsToShip: kits still at the clinic that no live shipment carries (the Shipments page's list);
 * - labQuestions: questions the lab asked the account's patients that they have not answered yet.
 */
export const ClinicNeeds = s.object({
  resultsToReview: s.integer,
  ordersAwaitingSignOff: s.integer,
  kitsToShip: s.integer,
  labQuestions: s.integer,
  /** The samples of the newest of those questions (at most CLINIC_NEEDS_QUESTIONS_SHOWN), to open each patient's page. */
  labQuestionSamples: s.array(s.object({ sampleId: s.integer, barcode: s.string, patientId: s.integer, askedAt: s.string })),
});
export type ClinicNeeds = s.Infer<typeof ClinicNeeds>;

/** How many of the lab's waiting questions the clinic's home names one by one. */
export const CLINIC_NEEDS_QUESTIONS_SHOWN = 5;

/** What the result endpoints answer, as JSON (the clinic's lists, the review list, approvals and corrections, the patient's result page): answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { DnaQc } from '../extractions/dna-extraction';
import { LANGUAGES } from '../messages';
import { PatientListOrder } from '../patient-orders/views';
import { SAMPLE_STATUSES } from '../samples/statuses';
import { SPECIMEN_CONDITIONS } from '../samples/specimen-checks';
import { DEMOGRAPHIC_FIELDS } from './result-links';
import { SmsContact } from '../sms/views';
import { TEST_RESULT_STATUSES } from './result-values';
import { APPROVAL_GROUPS } from './review';
import { AwaitingClinicReview, PatientResultInReview } from './patient-release';

const Person = s.object({ id: s.integer, name: s.string });

/** GET tests?category=…: one row of a result list. */
export const ResultListRow = s.object({
  sampleId: s.integer,
  barcode: s.string,
  status: s.string,
  /** For a sample In Storage: the status it had before. */
  statusBeforeStorage: s.nullable(s.string),
  rejectionReason: s.nullable(s.string),
  sampleType: s.nullable(s.string),
  tests: s.array(s.string),
  orderId: s.integer,
  orderNumber: s.string,
  origin: s.string,
  orderedAt: s.string,
  /** When the result was released (Resulted) or the sample rejected; null before. */
  resultedAt: s.nullable(s.string),
  patient: s.object({ id: s.integer, firstName: s.string, lastName: s.string, dateOfBirth: s.string }),
  physician: s.nullable(Person),
  /** A released lab report can be downloaded. */
  reportAvailable: s.boolean,
  /** A patient's own order (origin Patient Ordered): where it stands; null for clinic orders. */
  patientOrder: s.nullable(PatientListOrder),
  /** Results held from the patient until the clinic reviews them (policy "To the clinic first"); null when none waits. */
  awaitingReview: s.nullable(AwaitingClinicReview),
});
export type ResultListRow = s.Infer<typeof ResultListRow>;

/**
 * What a reviewer needs to decide a result without leaving the review list (issue 30, item 3): the
 * sample's QC, the patient's earlier released results of the same test and the specimen (the run is
 * the row's plate, importFile, enteredBy and enteredAt).
 */
export const ReviewContext = s.object({
  /** The DNA extraction the result records (a DNA Extraction result), or else the sample's newest one; null when none was imported. */
  extraction: s.nullable(s.object({
    /** As the file named the sample: its id, or its id + .reex. */
    label: s.string,
    concentration: s.number,
    a260280: s.number,
    volume: s.number,
    plate: s.string,
    well: s.string,
    /** Why it is outside the acceptance range (one sentence per measure); empty when within. */
    flags: s.array(s.string),
    qc: s.oneOf(valuesOf(DnaQc)),
    /** This result is the extraction's own DNA Extraction result. */
    own: s.boolean,
  })),
  /** The controls of the PCR plate the result was read on (empty for a result not read on a plate); passed null: not judged (a null control). */
  controls: s.array(s.object({ well: s.string, label: s.string, kind: s.string, result: s.nullable(s.string), expected: s.nullable(s.string), passed: s.nullable(s.boolean) })),
  /** The specimen: its type and condition at intake, when it was collected and received, when testing began and its age then. */
  specimen: s.object({
    sampleType: s.nullable(s.string),
    /** As intake found it (null: received before intake recorded conditions), and the technician's note. */
    condition: s.nullable(s.oneOf(SPECIMEN_CONDITIONS)),
    conditionNote: s.nullable(s.string),
    collectedAt: s.nullable(s.string),
    receivedAt: s.nullable(s.string),
    /** When the sample moved to In Testing (its first move), else when this result was entered. */
    testedAt: s.string,
    /** Collected → tested, in whole hours; null without a collection time. */
    ageAtTestingHours: s.nullable(s.integer),
  }),
  /** The patient's released results of the same test on earlier samples (or the version this corrects), newest first, at most REVIEW_EARLIER_RESULTS. */
  earlier: s.array(s.object({ resultId: s.integer, barcode: s.string, value: s.string, releasedAt: s.nullable(s.string), sameSample: s.boolean })),
  /** The value differs from the newest earlier released value (null: nothing earlier). */
  changedFromLast: s.nullable(s.boolean),
});
export type ReviewContext = s.Infer<typeof ReviewContext>;

/** One row of the review list. */
export const ReviewListRow = s.object({
  id: s.integer,
  version: s.integer,
  value: s.string,
  interpretation: s.nullable(s.string),
  status: s.string,
  test: s.string,
  approvalGroup: s.nullable(s.oneOf(APPROVAL_GROUPS)),
  sampleId: s.integer,
  barcode: s.string,
  sampleStatus: s.string,
  patient: s.string,
  account: s.nullable(s.string),
  enteredBy: Person,
  enteredAt: s.string,
  importJobId: s.nullable(s.integer),
  importFile: s.nullable(Person),
  plate: s.nullable(s.object({ id: s.integer, name: s.string, well: s.string, controlsPassed: s.boolean, controlProblems: s.array(s.string) })),
  correctionReason: s.nullable(s.string),
  releasedValue: s.nullable(s.string),
  /** The sample's DNA state by its newest extraction; null for a DNA extraction's own result. */
  dna: s.nullable(s.object({ qc: s.oneOf(valuesOf(DnaQc)), label: s.nullable(s.string), text: s.string })),
  canApprove: s.boolean,
  /** Why the caller may not approve it (the release rule's words); null when they may. */
  cannotApprove: s.nullable(s.string),
  /** What the reviewer needs to decide (shown in the row's details). */
  context: ReviewContext,
});
export type ReviewListRow = s.Infer<typeof ReviewListRow>;

/** One row of the released results list. */
export const ReleasedResultRow = s.object({
  id: s.integer,
  version: s.integer,
  value: s.string,
  test: s.string,
  sampleId: s.integer,
  barcode: s.string,
  sampleStatus: s.string,
  patient: s.string,
  account: s.nullable(s.string),
  enteredBy: Person,
  releasedBy: s.nullable(Person),
  releasedAt: s.nullable(s.string),
  correctionReason: s.nullable(s.string),
});
export type ReleasedResultRow = s.Infer<typeof ReleasedResultRow>;

export const ApprovedResult = s.object({ resultId: s.integer, barcode: s.string, test: s.string, value: s.string, correction: s.boolean, sampleStatus: s.oneOf(SAMPLE_STATUSES) });
export type ApprovedResult = s.Infer<typeof ApprovedResult>;
/** POST approve-tests-{group} */
export const ApproveResultsAnswer = s.object({ approved: s.array(ApprovedResult) });
export type ApproveResultsAnswer = s.Infer<typeof ApproveResultsAnswer>;

export const RejectedResult = s.object({ resultId: s.integer, barcode: s.string, test: s.string, sampleStatus: s.oneOf(SAMPLE_STATUSES) });
export type RejectedResult = s.Infer<typeof RejectedResult>;
/** POST import-tests-reject */
export const RejectResultsAnswer = s.object({ rejected: s.array(RejectedResult) });
export type RejectResultsAnswer = s.Infer<typeof RejectResultsAnswer>;

/** POST results/correct: the new In Review version of a released result. */
export const CorrectedResult = s.object({
  resultId: s.integer,
  version: s.integer,
  barcode: s.string,
  test: s.string,
  value: s.string,
  releasedValue: s.string,
  status: s.oneOf(TEST_RESULT_STATUSES),
});
export type CorrectedResult = s.Infer<typeof CorrectedResult>;

/** Whom a patient asks about a result: the laboratory, and the clinic that ordered the test. */
export const ResultContacts = s.object({
  lab: s.object({ name: s.string, phone: s.string, email: s.string }),
  /** The ordering clinic, its physician and how to reach them (null when the order has no account). */
  clinic: s.nullable(s.object({ name: s.string, physician: s.nullable(s.string), phone: s.nullable(s.string), email: s.nullable(s.string) })),
});
export type ResultContacts = s.Infer<typeof ResultContacts>;

/** The patient's result as the result page shows it (answered only to a verified session). */
export const PatientResultView = s.object({
  patientName: s.string,
  barcode: s.string,
  sampleType: s.nullable(s.string),
  collectedAt: s.nullable(s.string),
  receivedAt: s.nullable(s.string),
  results: s.array(s.object({
    testName: s.string,
    /** The stored value (a risk level, a genotype, a COVID result). */
    value: s.string,
    /** The value in words for the patient (the COVID result text; otherwise the value). */
    valueText: s.string,
    releasedAt: s.nullable(s.string),
    corrected: s.boolean,
    correctionReason: s.nullable(s.string),
    /** The value the correction replaced, when corrected. */
    previousValue: s.nullable(s.string),
  })),
  reportAvailable: s.boolean,
  /** Results released by the lab that the patient's clinic reviews first: not shown, only when they will be. */
  inReview: s.array(PatientResultInReview),
  contact: s.record(DEMOGRAPHIC_FIELDS, s.nullable(s.string)),
  /** The mobile number texts go to and whether the patient wants them (docs/sms.md). */
  texts: SmsContact,
  /** Whom to ask about the result. */
  contacts: ResultContacts,
});
export type PatientResultView = s.Infer<typeof PatientResultView>;

/** GET patient-result answer: only first name and last initial until the browser verified the date of birth. */
export const PatientResultGreeting = s.object({
  firstName: s.string,
  lastInitial: s.string,
  locked: s.boolean,
  verified: s.boolean,
  result: s.optional(PatientResultView),
});
export type PatientResultGreeting = s.Infer<typeof PatientResultGreeting>;

/** POST patient-result/update-demographic-info: the contact details on file now. */
export const DemographicInfoAnswer = s.object({ contact: s.record(DEMOGRAPHIC_FIELDS, s.nullable(s.string)) });
export type DemographicInfoAnswer = s.Infer<typeof DemographicInfoAnswer>;

/** POST patient-result/set-language: the language the patient's emails and pages use from now on. */
export const LanguageAnswer = s.object({ language: s.oneOf(LANGUAGES) });
export type LanguageAnswer = s.Infer<typeof LanguageAnswer>;

/** POST provider-clinic/{accountId}/patient/send-result-email (202): the toast text and the address written to. */
export const ResultEmailSent = s.object({ message: s.string, sentTo: s.string });
export type ResultEmailSent = s.Infer<typeof ResultEmailSent>;

/** POST provider-clinic/{accountId}/tests/search: one page of a result list's matches, and how many match. */
export const ResultSearchAnswer = s.object({ rows: s.array(ResultListRow), total: s.integer });
export type ResultSearchAnswer = s.Infer<typeof ResultSearchAnswer>;

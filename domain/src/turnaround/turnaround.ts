/**
 * Turnaround (issue 30, part 4): how long samples take, from their status events.
 * The steps a figure is measured between are the lifecycle's own transitions (a step taken, never a
 * sample merely taken out of In Storage), so each happens once per sample. The lab's admin sets a
 * target per test (receipt → result); a sample received and not yet resulted past its target is
 * overdue. Joi-free for the SPA (the request schemas are in turnaround-schemas.ts). docs/turnaround.md.
 */
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { TEST_NAMES, type TestName } from '../catalogue/tests';
import { approvalReportsResult } from '../results/review';
import { SAMPLE_TRANSITIONS } from '../samples/lifecycle';
import { REJECTION_REASONS, SampleStatus, type SampleStatus as Status } from '../samples/statuses';

/** A step of a sample's way through the lab, as its status event records it. */
export const TurnaroundStep = {
  Shipped: 'shipped',
  Received: 'received',
  Resulted: 'resulted',
  Released: 'released',
  Rejected: 'rejected',
} as const;
export type TurnaroundStep = (typeof TurnaroundStep)[keyof typeof TurnaroundStep];

const STEP_STATUS: Record<TurnaroundStep, Status> = {
  shipped: SampleStatus.InTransit,
  received: SampleStatus.InQueue,
  resulted: SampleStatus.Resulted,
  released: SampleStatus.Completed,
  rejected: SampleStatus.Rejected,
};

/**
 * The status event of a step: its `to_status` and the `from_status` values of the lifecycle's
 * transitions into it other than leaving storage (a stored sample's step is written with the status
 * it left, so it counts; taking it out later is not the step again).
 */
export function stepEvent(step: TurnaroundStep): { to: Status; from: Status[] } {
  const to = STEP_STATUS[step];
  const from = [...new Set(SAMPLE_TRANSITIONS.filter((t) => t.to === to && t.from !== SampleStatus.InStorage).map((t) => t.from))];
  return { to, from };
}

/**
 * Open: received and not yet resulted or rejected. A sample in these statuses is open, and so is one
 * In Storage that left one of them (it goes back there). The dashboard, the clinic's page and the
 * lab's worklist count the same samples.
 */
export const OPEN_SAMPLE_STATUSES: readonly Status[] = [SampleStatus.InQueue, SampleStatus.InTesting];

/** The figures the lab's dashboard measures (the step each starts and ends at). */
export const LabMeasure = {
  ReceiptToResult: 'Receipt → result',
  ReceiptToRelease: 'Receipt → release',
} as const;
export type LabMeasure = (typeof LabMeasure)[keyof typeof LabMeasure];
export const LAB_MEASURES = valuesOf(LabMeasure);

/** The figures the clinic's page measures. */
export const ClinicMeasure = {
  ShippedToReceived: 'Shipped → received',
  ReceivedToResulted: 'Received → resulted',
  ShippedToResulted: 'Shipped → resulted',
} as const;
export type ClinicMeasure = (typeof ClinicMeasure)[keyof typeof ClinicMeasure];
export const CLINIC_MEASURES = valuesOf(ClinicMeasure);

export const MEASURE_STEPS: Record<LabMeasure | ClinicMeasure, { start: TurnaroundStep; end: TurnaroundStep }> = {
  [LabMeasure.ReceiptToResult]: { start: 'received', end: 'resulted' },
  [LabMeasure.ReceiptToRelease]: { start: 'received', end: 'released' },
  [ClinicMeasure.ShippedToReceived]: { start: 'shipped', end: 'received' },
  [ClinicMeasure.ReceivedToResulted]: { start: 'received', end: 'resulted' },
  [ClinicMeasure.ShippedToResulted]: { start: 'shipped', end: 'resulted' },
};

/** The tests turnaround is measured for and a target can be set for: those whose approval reports a result. */
export const TURNAROUND_TESTS: readonly TestName[] = TEST_NAMES.filter(approvalReportsResult);

/** The time range when none is asked: the last 12 weeks (84 days, today included). */
export const TURNAROUND_DEFAULT_DAYS = 84;
/** The longest range one request may ask (about two years). */
export const TURNAROUND_MAX_DAYS = 731;

export const TargetUnit = { Hours: 'hours', Days: 'days' } as const;
export type TargetUnit = (typeof TargetUnit)[keyof typeof TargetUnit];
export const TARGET_UNITS = valuesOf(TargetUnit);
/** The largest target: 90 days (2160 hours). */
export const MAX_TARGET_HOURS = 2160;
export const MAX_TARGET: Record<TargetUnit, number> = { hours: MAX_TARGET_HOURS, days: MAX_TARGET_HOURS / 24 };

export function targetHours(amount: number, unit: TargetUnit): number {
  return unit === TargetUnit.Days ? amount * 24 : amount;
}

/** "36 hours", "5 days". */
export function describeTarget(amount: number, unit: TargetUnit): string {
  return `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}

/** A duration in hours as people read it: "20 h" under two days, "3.5 days" above. */
export function describeHours(hours: number | null): string {
  if (hours === null) return '—';
  if (hours < 48) return `${Math.round(hours * 10) / 10} h`;
  return `${Math.round((hours / 24) * 10) / 10} days`;
}

/** GET/PUT /api/admin/turnaround/targets: one test's target (null when the admin never set one). */
export const TurnaroundTargetView = s.object({
  testName: s.string,
  amount: s.nullable(s.integer),
  unit: s.nullable(s.oneOf(TARGET_UNITS)),
  hours: s.nullable(s.integer),
  updatedAt: s.nullable(s.string),
  updatedBy: s.nullable(s.string),
});
export type TurnaroundTargetView = s.Infer<typeof TurnaroundTargetView>;

/** One figure of one test: over the whole range (`week` null) or in the week starting `week` (a Monday, YYYY-MM-DD). */
const durationFields = {
  testName: s.string,
  week: s.nullable(s.string),
  samples: s.integer,
  medianHours: s.nullable(s.number),
  p90Hours: s.nullable(s.number),
};

export const LabTurnaroundRow = s.object({ measure: s.oneOf(LAB_MEASURES), ...durationFields });
export type LabTurnaroundRow = s.Infer<typeof LabTurnaroundRow>;

/** A test's target and the samples past it: received and not resulted (open), and resulted in the range. */
export const OverdueByTest = s.object({
  testName: s.string,
  targetHours: s.nullable(s.integer),
  open: s.integer,
  openPastTarget: s.integer,
  resulted: s.integer,
  resultedPastTarget: s.integer,
});
export type OverdueByTest = s.Infer<typeof OverdueByTest>;

/** One day (YYYY-MM-DD): samples received, resulted and rejected that day. */
export const ThroughputDay = s.object({ day: s.string, received: s.integer, resulted: s.integer, rejected: s.integer });
export type ThroughputDay = s.Infer<typeof ThroughputDay>;

export const RejectionCount = s.object({ reason: s.string, samples: s.integer });
export type RejectionCount = s.Infer<typeof RejectionCount>;

/** GET /api/lab-toolbox/turnaround?from=&to= */
export const LabTurnaroundView = s.object({
  from: s.string,
  to: s.string,
  timeZone: s.string,
  turnaround: s.array(LabTurnaroundRow),
  overdue: s.array(OverdueByTest),
  throughput: s.array(ThroughputDay),
  rejections: s.array(RejectionCount),
});
export type LabTurnaroundView = s.Infer<typeof LabTurnaroundView>;

export const ClinicTurnaroundRow = s.object({ measure: s.oneOf(CLINIC_MEASURES), ...durationFields });
export type ClinicTurnaroundRow = s.Infer<typeof ClinicTurnaroundRow>;

/** A sample of the clinic's past its test's target: where it is and since when. */
export const OverdueSample = s.object({
  sampleId: s.integer,
  barcode: s.string,
  patientId: s.integer,
  testNames: s.array(s.string),
  status: s.string,
  since: s.string,
  receivedAt: s.string,
  targetHours: s.integer,
  hoursSinceReceipt: s.number,
});
export type OverdueSample = s.Infer<typeof OverdueSample>;

/** GET /api/provider-clinic/{accountId}/turnaround?from=&to= */
export const ClinicTurnaroundView = s.object({
  from: s.string,
  to: s.string,
  timeZone: s.string,
  turnaround: s.array(ClinicTurnaroundRow),
  overdue: s.array(OverdueSample),
  rejections: s.array(RejectionCount),
});
export type ClinicTurnaroundView = s.Infer<typeof ClinicTurnaroundView>;

/** The tables a dashboard exports as CSV. */
export const LAB_TURNAROUND_TABLES = ['turnaround', 'overdue', 'throughput', 'rejections'] as const;
export type LabTurnaroundTable = (typeof LAB_TURNAROUND_TABLES)[number];
export const CLINIC_TURNAROUND_TABLES = ['turnaround', 'overdue', 'rejections'] as const;
export type ClinicTurnaroundTable = (typeof CLINIC_TURNAROUND_TABLES)[number];

/** The spec's rejection reasons, in its order (a dashboard lists every one, zero included). */
export const TURNAROUND_REJECTION_REASONS = REJECTION_REASONS;

/** An ISO day (YYYY-MM-DD) `days` after `day`. */
export function addDaysToDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The default range ending `today` (YYYY-MM-DD): the last 12 weeks, today included. */
export function defaultTurnaroundRange(today: string): { from: string; to: string } {
  return { from: addDaysToDay(today, 1 - TURNAROUND_DEFAULT_DAYS), to: today };
}

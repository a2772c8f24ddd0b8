/**
 * Turnaround figures (issue 30, part 4; docs/turnaround.md), computed by PostgreSQL from the
 * samples' status events: each step is the event of the lifecycle transition into it (domain's
 * stepEvent), its time the first such event, kept per sample in `sample_turnaround` by triggers;
 * medians and 90th percentiles are percentile_cont.
 * - the lab's dashboard (every account): receipt → result and receipt → release per test, per week
 *   and over the range; per test its target and the samples past it; throughput per day;
 *   rejections by reason;
 * - a clinic's page (its own account's samples only): shipped → received → resulted per test, its
 *   samples past their target with where each is, its rejections by reason.
 * A range is whole days [from, to] on the lab's clock (LAB_TIME_ZONE: its days and Monday-to-Sunday
 * weeks, 23 or 25 hours across a daylight-saving change); a figure counts a sample in the range
 * of its end step (a result in the range, a release in the range …).
 */
import { QueryTypes } from 'sequelize';
import {
  ClinicMeasure, describeSampleStatus, defaultTurnaroundRange, LabMeasure, stepEvent, TURNAROUND_REJECTION_REASONS,
  TURNAROUND_TESTS, addDaysToDay, labDayOf,
  type ClinicMeasure as ClinicMeasureName, type ClinicTurnaroundRow, type ClinicTurnaroundView, type LabMeasure as LabMeasureName,
  type LabTurnaroundRow, type LabTurnaroundView, type OverdueByTest, type OverdueSample, type RejectionCount, type SampleStatus as Status,
  type ThroughputDay, type TurnaroundQuery, type TurnaroundStep,
} from '@platform/domain';
import type { ServerContext } from '../context';
import type { AccountCaller } from '../audit';
import { TARGET_HOURS_SQL } from './targets';

type Ctx = Pick<ServerContext, 'db'>;

const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;
const list = (values: readonly string[]) => values.map(lit).join(', ');

/** `alias` is the status event of `step` (SQL over constants of domain, never over input). */
function isStep(alias: string, step: TurnaroundStep): string {
  const { to, from } = stepEvent(step);
  return `(${alias}.to_status = ${lit(to)} AND ${alias}.from_status IN (${list(from)}))`;
}

/**
 * Each sample's steps, its turnaround tests and whether it is open, one narrow row a sample kept by
 * triggers on samples, tests and status events (migration 20261211100000), as `st`: every figure is
 * a range scan of one step's index, never a look at each sample's events.
 */
export const STEPS_FROM = 'sample_turnaround st';
/** Sample `st` is open: received and not yet resulted or rejected (domain's OPEN_SAMPLE_STATUSES, also while In Storage). */
export const OPEN_SQL = '(st.open AND st.received_at IS NOT NULL)';
/** The turnaround tests of sample `st`, one row each, as `t.name` (a sample may carry two). */
export const TESTS_JOIN = 'CROSS JOIN LATERAL unnest(st.test_names) t(name)';
/** The target of test `t.name`, in hours, as `tg.hours` (null when the admin set none). */
export const TARGET_JOIN = `LEFT JOIN (SELECT tt.test_name, ${TARGET_HOURS_SQL} AS hours FROM turnaround_targets tt) tg ON tg.test_name = t.name`;
/** Overdue: received (at `receivedAt`) longer ago than its test's target (`tg.hours`), at :now. A test with no target has nothing overdue. */
export const pastTargetSql = (receivedAt: string) => `(tg.hours IS NOT NULL AND ${receivedAt} < :now::timestamptz - tg.hours * interval '1 hour')`;

export interface ResolvedRange {
  from: string;
  to: string;
  timeZone: string;
}

/** The asked range, or its defaults (to: the lab's today; from: 12 weeks before to). */
export function resolveRange(query: Partial<TurnaroundQuery>, now: Date, timeZone: string): ResolvedRange {
  const today = labDayOf(now, timeZone);
  const to = query.to ?? today;
  const from = query.from ?? defaultTurnaroundRange(to).from;
  return { from, to, timeZone };
}

/** The range's bounds as SQL replacements: [start, end) instants of whole days in the zone. */
const bounds = (r: ResolvedRange) => ({ fromDay: r.from, endDay: addDaysToDay(r.to, 1), tz: r.timeZone });
const START = `(CAST(:fromDay AS date)::timestamp AT TIME ZONE :tz)`;
const END = `(CAST(:endDay AS date)::timestamp AT TIME ZONE :tz)`;

interface DurationRow {
  test_name: string;
  measure: string;
  week: string | null;
  samples: number;
  p: [number, number] | null;
  past_target: number;
  target_hours: number | null;
}

const hoursOf = (p: number | null | undefined) => (p === null || p === undefined ? null : Math.round(Number(p) * 100) / 100);

function durationRow<M extends string>(r: DurationRow): { measure: M; testName: string; week: string | null; samples: number; medianHours: number | null; p90Hours: number | null } {
  return { measure: r.measure as M, testName: r.test_name, week: r.week, samples: r.samples, medianHours: hoursOf(r.p?.[0]), p90Hours: hoursOf(r.p?.[1]) };
}

/**
 * The durations' aggregation: `timed` (test_names, measure, hours, week as a timestamp) per test,
 * per week and over the range, with the target's past count (a result later than its test's target).
 */
const DURATION_AGGREGATE = (resultMeasure: string) => `
SELECT t.name AS test_name, timed.measure, to_char(timed.week, 'YYYY-MM-DD') AS week, count(*)::int AS samples,
       percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY timed.hours) AS p,
       count(*) FILTER (WHERE timed.measure = ${lit(resultMeasure)} AND tg.hours IS NOT NULL AND timed.hours > tg.hours)::int AS past_target,
       min(tg.hours) AS target_hours
  FROM timed CROSS JOIN LATERAL unnest(timed.test_names) t(name) ${TARGET_JOIN}
 GROUP BY GROUPING SETS ((t.name, timed.measure, timed.week), (t.name, timed.measure))
 ORDER BY t.name, timed.measure, timed.week NULLS FIRST`;

/** The Monday (as a timestamp on the lab's clock) of the week of instant `at`. */
const weekOf = (at: string) => `date_trunc('week', ${at} AT TIME ZONE :tz)`;
const hoursBetween = (start: string, end: string) => `extract(epoch FROM ${end} - ${start}) / 3600`;

/** Receipt → `end` (result or release) of every sample whose `end` is in the range: one index range scan. */
const labDurationsSql = (measure: LabMeasureName, end: 'resulted_at' | 'released_at') => `
WITH timed AS (
  SELECT st.test_names, ${lit(measure)} AS measure, ${hoursBetween('st.received_at', `st.${end}`)} AS hours, ${weekOf(`st.${end}`)} AS week
    FROM ${STEPS_FROM}
   WHERE st.${end} >= ${START} AND st.${end} < ${END} AND st.received_at IS NOT NULL
)
${DURATION_AGGREGATE(LabMeasure.ReceiptToResult)}`;

/** The open samples by their tests (few distinct sets: hashed, never unnested row by row). */
const OPEN_BY_TESTS = `
SELECT st.test_names, count(*)::int AS open
  FROM ${STEPS_FROM}
 WHERE ${OPEN_SQL} AND st.received_at <= :now::timestamptz
 GROUP BY st.test_names`;

/** Per test with a target, its open samples received longer ago than the target (the index read up to that instant). */
const OPEN_PAST_TARGET = `
SELECT tg.test_name, tg.hours AS target_hours,
       (SELECT count(*) FROM ${STEPS_FROM}
         WHERE ${OPEN_SQL} AND st.received_at < :now::timestamptz - tg.hours * interval '1 hour' AND st.test_names @> ARRAY[tg.test_name])::int AS past
  FROM (SELECT tt.test_name, ${TARGET_HOURS_SQL} AS hours FROM turnaround_targets tt) tg`;

export interface OpenByTest {
  test_name: string;
  open: number;
  past: number;
  target_hours: number | null;
}

/** Per test, the samples received and not yet resulted or rejected, and those past the test's target at `now`. */
export async function openSamplesByTest(ctx: Ctx, now: Date): Promise<OpenByTest[]> {
  const replacements = { now: now.toISOString() };
  const [byTests, pastTarget] = await Promise.all([
    ctx.db.sequelize.query<{ test_names: string[]; open: number }>(OPEN_BY_TESTS, { replacements, type: QueryTypes.SELECT }),
    ctx.db.sequelize.query<{ test_name: string; target_hours: number; past: number }>(OPEN_PAST_TARGET, { replacements, type: QueryTypes.SELECT }),
  ]);
  const open = new Map<string, number>();
  for (const row of byTests) for (const name of row.test_names) open.set(name, (open.get(name) ?? 0) + row.open);
  return [...open].map(([testName, count]) => {
    const target = pastTarget.find((r) => r.test_name === testName);
    return { test_name: testName, open: count, past: target?.past ?? 0, target_hours: target ? target.target_hours : null };
  });
}

/**
 * Samples received, resulted and rejected on every day of the range, zero included (each step once a sample): each lab
 * day's bounds worked out once (23 or 25 hours across a clock change), then counted in each step's
 * index, never a time zone conversion per sample.
 */
const LAB_THROUGHPUT = `
WITH days AS (
  SELECT d AS day, d AT TIME ZONE :tz AS starts, (d + interval '1 day') AT TIME ZONE :tz AS ends
    FROM generate_series(CAST(:fromDay AS date)::timestamp, CAST(:endDay AS date)::timestamp - interval '1 day', interval '1 day') d
)
SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
       ${(['received', 'resulted', 'rejected'] as const).map((step) => `(SELECT count(*) FROM ${STEPS_FROM} WHERE st.${step}_at >= days.starts AND st.${step}_at < days.ends)::int AS ${step}`).join(',\n       ')}
  FROM days
 ORDER BY days.day`;

/** Samples rejected in the range by reason (the sample's recorded reason). */
const rejectionsSql = (accountFilter: string) => `
SELECT coalesce(s.rejection_reason, e.reason, 'No reason recorded') AS reason, count(DISTINCT e.sample_id)::int AS samples
  FROM sample_status_events e JOIN samples s ON s.id = e.sample_id
 WHERE ${isStep('e', 'rejected')} AND e.created_at >= ${START} AND e.created_at < ${END} ${accountFilter}
 GROUP BY 1`;

/** Every spec reason (zero included, in the spec's order), then any other recorded reason. */
function rejectionCounts(rows: { reason: string; samples: number }[]): RejectionCount[] {
  const known = TURNAROUND_REJECTION_REASONS.map((reason) => ({ reason, samples: rows.find((r) => r.reason === reason)?.samples ?? 0 }));
  const other = rows.filter((r) => !(TURNAROUND_REJECTION_REASONS as readonly string[]).includes(r.reason)).map((r) => ({ reason: r.reason, samples: r.samples }));
  return [...known, ...other];
}

/** Per test, then measure, then week (the whole range first). */
function byTestMeasureWeek(a: DurationRow, b: DurationRow): number {
  return a.test_name.localeCompare(b.test_name) || a.measure.localeCompare(b.measure) || (a.week === null ? -1 : b.week === null ? 1 : a.week.localeCompare(b.week));
}

/** GET /api/lab-toolbox/turnaround: the lab's dashboard over the range (every account). */
export async function labTurnaround(ctx: Ctx & Pick<ServerContext, 'config'>, query: Partial<TurnaroundQuery>, now = new Date()): Promise<LabTurnaroundView> {
  const range = resolveRange(query, now, ctx.config.labTimeZone);
  const replacements = { ...bounds(range), now: now.toISOString() };
  const q = <T extends object>(sql: string) => ctx.db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  // Five independent reads on five pool connections: the answer takes the slowest, not the sum.
  const [results, releases, open, throughput, rejections] = await Promise.all([
    q<DurationRow>(labDurationsSql(LabMeasure.ReceiptToResult, 'resulted_at')),
    q<DurationRow>(labDurationsSql(LabMeasure.ReceiptToRelease, 'released_at')),
    openSamplesByTest(ctx, now),
    q<ThroughputDay>(LAB_THROUGHPUT),
    q<{ reason: string; samples: number }>(rejectionsSql('')),
  ]);
  const durations = [...results, ...releases].sort(byTestMeasureWeek);
  const targetRows = await ctx.db.sequelize.query<{ test_name: string; hours: number }>(`SELECT tt.test_name, ${TARGET_HOURS_SQL} AS hours FROM turnaround_targets tt`, { type: QueryTypes.SELECT });
  const overdue: OverdueByTest[] = TURNAROUND_TESTS.map((testName) => {
    const whole = durations.find((d) => d.test_name === testName && d.week === null && d.measure === LabMeasure.ReceiptToResult);
    const o = open.find((r) => r.test_name === testName);
    return {
      testName,
      targetHours: targetRows.find((r) => r.test_name === testName)?.hours ?? null,
      open: o?.open ?? 0,
      openPastTarget: o?.past ?? 0,
      resulted: whole?.samples ?? 0,
      resultedPastTarget: whole?.past_target ?? 0,
    };
  }).filter((r) => r.targetHours !== null || r.open > 0 || r.resulted > 0);
  return {
    ...range,
    turnaround: durations.map((r) => durationRow<LabMeasureName>(r)) as LabTurnaroundRow[],
    overdue,
    throughput,
    rejections: rejectionCounts(rejections),
  };
}

// ---- A clinic's own samples ----

/** Shipped → received → resulted of the account's samples whose end step is in the range. */
const CLINIC_DURATIONS = `
WITH timed AS (
  SELECT st.test_names, m.measure, ${hoursBetween('m.start_at', 'm.end_at')} AS hours, ${weekOf('m.end_at')} AS week
    FROM ${STEPS_FROM}
    CROSS JOIN LATERAL (VALUES
      (${lit(ClinicMeasure.ShippedToReceived)}, st.shipped_at, st.received_at),
      (${lit(ClinicMeasure.ReceivedToResulted)}, st.received_at, st.resulted_at),
      (${lit(ClinicMeasure.ShippedToResulted)}, st.shipped_at, st.resulted_at)) m(measure, start_at, end_at)
   WHERE st.account_id = :accountId
     AND m.start_at IS NOT NULL AND m.end_at IS NOT NULL AND m.end_at >= ${START} AND m.end_at < ${END}
)
${DURATION_AGGREGATE(ClinicMeasure.ReceivedToResulted)}`;

/** The account's open samples past their test's target, oldest receipt first, with where each is and since when. */
const CLINIC_OVERDUE = `
SELECT st.sample_id, s.barcode, s.patient_id, s.status, s.status_before_storage, st.received_at, st.last_event_at AS last_at,
       array_agg(t.name ORDER BY t.name) AS test_names, min(tg.hours) AS target_hours
  FROM ${STEPS_FROM} JOIN samples s ON s.id = st.sample_id ${TESTS_JOIN} ${TARGET_JOIN}
 WHERE st.account_id = :accountId AND ${OPEN_SQL} AND ${pastTargetSql('st.received_at')}
 GROUP BY st.sample_id, s.barcode, s.patient_id, s.status, s.status_before_storage, st.received_at, st.last_event_at
 ORDER BY st.received_at, st.sample_id`;

/** Hours from `at` to `now`, to a tenth: how long a sample has waited since its receipt. */
export const hoursSince = (at: Date, now: Date) => Math.round(((now.getTime() - at.getTime()) / 3_600_000) * 10) / 10;

interface OverdueRow {
  sample_id: string | number;
  barcode: string;
  patient_id: string | number;
  status: Status;
  status_before_storage: Status | null;
  received_at: Date;
  last_at: Date;
  test_names: string[];
  target_hours: number;
}

/** GET /api/provider-clinic/{accountId}/turnaround: the caller's account's own samples, nothing else. */
export async function clinicTurnaround(ctx: Ctx & Pick<ServerContext, 'config'>, caller: AccountCaller, query: Partial<TurnaroundQuery>, now = new Date()): Promise<ClinicTurnaroundView> {
  const range = resolveRange(query, now, ctx.config.labTimeZone);
  const replacements = { ...bounds(range), now: now.toISOString(), accountId: caller.accountId };
  const q = <T extends object>(sql: string) => ctx.db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const [durations, overdue, rejections] = await Promise.all([
    q<DurationRow>(CLINIC_DURATIONS),
    q<OverdueRow>(CLINIC_OVERDUE),
    q<{ reason: string; samples: number }>(rejectionsSql('AND s.account_id = :accountId')),
  ]);
  return {
    ...range,
    turnaround: durations.map((r) => durationRow<ClinicMeasureName>(r)) as ClinicTurnaroundRow[],
    overdue: overdue.map((r): OverdueSample => ({
      sampleId: Number(r.sample_id),
      barcode: r.barcode,
      patientId: Number(r.patient_id),
      testNames: r.test_names,
      status: describeSampleStatus({ status: r.status, statusBeforeStorage: r.status_before_storage }),
      since: r.last_at.toISOString(),
      receivedAt: r.received_at.toISOString(),
      targetHours: Number(r.target_hours),
      hoursSinceReceipt: hoursSince(r.received_at, now),
    })),
    rejections: rejectionCounts(rejections),
  };
}

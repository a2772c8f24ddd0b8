/**
 * Turnaround figures (issue 30, part 4; docs/turnaround.md), computed by PostgreSQL from the
 * samples' status events: each step is the event of the lifecycle transition into it (domain's
 * stepEvent), its time the first such event; medians and 90th percentiles are percentile_cont.
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
  ClinicMeasure, describeSampleStatus, defaultTurnaroundRange, LabMeasure, SampleStatus, stepEvent, TURNAROUND_REJECTION_REASONS,
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

const TESTS = list(TURNAROUND_TESTS);
/** A sample received and not yet resulted or rejected: In Queue or In Testing (also while In Storage). */
const OPEN_STATUSES = [SampleStatus.InQueue, SampleStatus.InTesting];
export const openSampleSql = (s: string) => `(${s}.status IN (${list(OPEN_STATUSES)}) OR (${s}.status = ${lit(SampleStatus.InStorage)} AND ${s}.status_before_storage IN (${list(OPEN_STATUSES)})))`;
/** The turnaround tests of a sample, as `t.name`, once each (a sample may carry two tests). */
export const sampleTestsJoin = (sampleId: string) => `CROSS JOIN LATERAL (SELECT DISTINCT tx.name FROM tests tx WHERE tx.sample_id = ${sampleId} AND tx.name IN (${TESTS})) t`;
/** The target of test `t.name`, in hours, as `tg.hours` (null when the admin set none). */
export const TARGET_JOIN = `LEFT JOIN (SELECT tt.test_name, ${TARGET_HOURS_SQL} AS hours FROM turnaround_targets tt) tg ON tg.test_name = t.name`;
/** Sample `sampleId`'s receipt (its first received step), as `r.received_at` (null when it has none). */
export const receiptJoin = (sampleId: string) => `CROSS JOIN LATERAL (SELECT min(r.created_at) AS received_at FROM sample_status_events r WHERE r.sample_id = ${sampleId} AND ${isStep('r', 'received')}) r`;
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
 * The durations' aggregation: `timed` (sample_id, measure, hours, week) per test, per week and
 * over the range, with the target's past count (a result later than its test's target).
 */
const DURATION_AGGREGATE = (resultMeasure: string) => `
SELECT t.name AS test_name, timed.measure, timed.week, count(*)::int AS samples,
       percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY timed.hours) AS p,
       count(*) FILTER (WHERE timed.measure = ${lit(resultMeasure)} AND tg.hours IS NOT NULL AND timed.hours > tg.hours)::int AS past_target,
       min(tg.hours) AS target_hours
  FROM timed ${sampleTestsJoin('timed.sample_id')} ${TARGET_JOIN}
 GROUP BY GROUPING SETS ((t.name, timed.measure, timed.week), (t.name, timed.measure))
 ORDER BY t.name, timed.measure, timed.week NULLS FIRST`;

const weekOf = (at: string) => `to_char(date_trunc('week', ${at} AT TIME ZONE :tz), 'YYYY-MM-DD')`;

/** Receipt → result and receipt → release of every sample whose result (release) is in the range. */
const LAB_DURATIONS = `
WITH ends AS (
  SELECT e.sample_id,
         min(e.created_at) FILTER (WHERE ${isStep('e', 'resulted')}) AS resulted_at,
         min(e.created_at) FILTER (WHERE ${isStep('e', 'released')}) AS released_at
    FROM sample_status_events e
   WHERE e.to_status IN (${list([stepEvent('resulted').to, stepEvent('released').to])})
     AND e.created_at >= ${START} AND e.created_at < ${END}
   GROUP BY e.sample_id
), timed AS (
  SELECT ends.sample_id, m.measure, extract(epoch FROM m.end_at - r.received_at) / 3600 AS hours, ${weekOf('m.end_at')} AS week
    FROM ends
    CROSS JOIN LATERAL (SELECT min(r.created_at) AS received_at FROM sample_status_events r WHERE r.sample_id = ends.sample_id AND ${isStep('r', 'received')}) r
    CROSS JOIN LATERAL (VALUES (${lit(LabMeasure.ReceiptToResult)}, ends.resulted_at), (${lit(LabMeasure.ReceiptToRelease)}, ends.released_at)) m(measure, end_at)
   WHERE m.end_at IS NOT NULL AND r.received_at IS NOT NULL
)
${DURATION_AGGREGATE(LabMeasure.ReceiptToResult)}`;

/** Samples received and not yet resulted, per test, and those past their test's target now. */
const LAB_OPEN = `
SELECT t.name AS test_name, count(*)::int AS open, count(*) FILTER (WHERE ${pastTargetSql('r.received_at')})::int AS past, min(tg.hours) AS target_hours
  FROM samples s ${receiptJoin('s.id')} ${sampleTestsJoin('s.id')} ${TARGET_JOIN}
 WHERE ${openSampleSql('s')} AND r.received_at <= :now::timestamptz
 GROUP BY t.name`;

export interface OpenByTest {
  test_name: string;
  open: number;
  past: number;
  target_hours: number | null;
}

/** Per test, the samples received and not yet resulted or rejected, and those past the test's target at `now`. */
export function openSamplesByTest(ctx: Ctx, now: Date): Promise<OpenByTest[]> {
  return ctx.db.sequelize.query<OpenByTest>(LAB_OPEN, { replacements: { now: now.toISOString() }, type: QueryTypes.SELECT });
}

const LAB_THROUGHPUT = `
SELECT to_char(date_trunc('day', e.created_at AT TIME ZONE :tz), 'YYYY-MM-DD') AS day,
       count(*) FILTER (WHERE ${isStep('e', 'received')})::int AS received,
       count(*) FILTER (WHERE ${isStep('e', 'resulted')})::int AS resulted,
       count(*) FILTER (WHERE ${isStep('e', 'rejected')})::int AS rejected
  FROM sample_status_events e
 WHERE e.to_status IN (${list([stepEvent('received').to, stepEvent('resulted').to, stepEvent('rejected').to])})
   AND e.created_at >= ${START} AND e.created_at < ${END}
 GROUP BY 1`;

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

/** Every day of the range, zero where nothing happened. */
function everyDay(range: ResolvedRange, rows: ThroughputDay[]): ThroughputDay[] {
  const out: ThroughputDay[] = [];
  for (let day = range.from; day <= range.to; day = addDaysToDay(day, 1)) {
    out.push(rows.find((r) => r.day === day) ?? { day, received: 0, resulted: 0, rejected: 0 });
  }
  return out;
}

/** GET /api/lab-toolbox/turnaround: the lab's dashboard over the range (every account). */
export async function labTurnaround(ctx: Ctx & Pick<ServerContext, 'config'>, query: Partial<TurnaroundQuery>, now = new Date()): Promise<LabTurnaroundView> {
  const range = resolveRange(query, now, ctx.config.labTimeZone);
  const replacements = { ...bounds(range), now: now.toISOString() };
  const q = <T extends object>(sql: string) => ctx.db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  // Four independent reads on four pool connections: the answer takes the slowest, not the sum.
  const [durations, open, throughput, rejections] = await Promise.all([
    q<DurationRow>(LAB_DURATIONS),
    openSamplesByTest(ctx, now),
    q<ThroughputDay>(LAB_THROUGHPUT),
    q<{ reason: string; samples: number }>(rejectionsSql('')),
  ]);
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
    throughput: everyDay(range, throughput),
    rejections: rejectionCounts(rejections),
  };
}

// ---- A clinic's own samples ----

/** Each sample of the account with the times of its steps (one index-only look at its events). */
const CLINIC_STEPS = `
WITH steps AS (
  SELECT s.id AS sample_id, s.barcode, s.patient_id, s.status, s.status_before_storage, st.*
    FROM samples s
    CROSS JOIN LATERAL (
      SELECT min(e.created_at) FILTER (WHERE ${isStep('e', 'shipped')}) AS shipped_at,
             min(e.created_at) FILTER (WHERE ${isStep('e', 'received')}) AS received_at,
             min(e.created_at) FILTER (WHERE ${isStep('e', 'resulted')}) AS resulted_at,
             max(e.created_at) AS last_at
        FROM sample_status_events e WHERE e.sample_id = s.id) st
   WHERE s.account_id = :accountId
)`;

const CLINIC_DURATIONS = `${CLINIC_STEPS}, timed AS (
  SELECT steps.sample_id, m.measure, extract(epoch FROM m.end_at - m.start_at) / 3600 AS hours, ${weekOf('m.end_at')} AS week
    FROM steps
    CROSS JOIN LATERAL (VALUES
      (${lit(ClinicMeasure.ShippedToReceived)}, steps.shipped_at, steps.received_at),
      (${lit(ClinicMeasure.ReceivedToResulted)}, steps.received_at, steps.resulted_at),
      (${lit(ClinicMeasure.ShippedToResulted)}, steps.shipped_at, steps.resulted_at)) m(measure, start_at, end_at)
   WHERE m.start_at IS NOT NULL AND m.end_at IS NOT NULL AND m.end_at >= ${START} AND m.end_at < ${END}
)
${DURATION_AGGREGATE(ClinicMeasure.ReceivedToResulted)}`;

const CLINIC_OVERDUE = `${CLINIC_STEPS}
SELECT steps.sample_id, steps.barcode, steps.patient_id, steps.status, steps.status_before_storage, steps.received_at, steps.last_at,
       array_agg(t.name ORDER BY t.name) AS test_names, min(tg.hours) AS target_hours
  FROM steps ${sampleTestsJoin('steps.sample_id')} ${TARGET_JOIN}
 WHERE ${openSampleSql('steps')} AND steps.received_at IS NOT NULL
   AND ${pastTargetSql('steps.received_at')}
 GROUP BY steps.sample_id, steps.barcode, steps.patient_id, steps.status, steps.status_before_storage, steps.received_at, steps.last_at
 ORDER BY steps.received_at, steps.sample_id`;

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

/**
 * The lab's worklist (issue 30, part 5; docs/worklists.md): every test of every sample received and
 * not yet resulted or rejected (In Queue, In Testing, or stored from one of them), oldest receipt
 * first, each marked when it is past its test's turnaround target. What "open", the receipt, the
 * target and "past target" are is turnaround's (server/src/turnaround), read from there, so the
 * worklist and the dashboard's counts never disagree.
 */
import {
  describeSampleStatus, patientShortName, SampleStatus, workStatusOf, type LabWorklistQuery, type LabWorklistRow, type WorklistStatus, type WorklistTestCount,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, type UserCaller } from '../audit';
import { auditedPage, offsetOf } from '../paging';
import { hoursSince, OPEN_SQL, openSamplesByTest, pastTargetSql, STEPS_FROM, TARGET_JOIN, TESTS_JOIN } from '../turnaround/turnaround';

type Ctx = Pick<ServerContext, 'db'>;

interface WorklistSqlRow {
  id: number;
  barcode: string;
  status: SampleStatus;
  status_before_storage: SampleStatus | null;
  sample_type: string | null;
  test_name: string;
  received_at: Date;
  target_hours: number | null;
  past_target: boolean;
  account_name: string | null;
  first_name: string | null;
  last_name: string | null;
  study_id: string | null;
}

/** The filters as SQL over samples s and their test t.name (values as replacements, never text). */
function worklistFilters(query: LabWorklistQuery): { where: string; replacements: Record<string, unknown> } {
  const where = [OPEN_SQL, 'st.received_at <= :now::timestamptz'];
  const replacements: Record<string, unknown> = {};
  if (query.test) (where.push('t.name = :test'), (replacements.test = query.test));
  if (query.status) {
    // A stored sample is on the list by the status it left for storage.
    where.push(`(s.status = :status OR (s.status = :inStorage AND s.status_before_storage = :status))`);
    replacements.status = query.status;
  }
  return { where: where.join(' AND '), replacements };
}

/** GET /api/lab-toolbox/worklist: one page of the open tests, oldest receipt first, past-target ones marked. */
export async function labWorklist(ctx: Ctx, caller: UserCaller, query: LabWorklistQuery, now = new Date()): Promise<{ rows: LabWorklistRow[]; total: number }> {
  const filter = worklistFilters(query);
  const { rows, total } = await auditedPage<WorklistSqlRow>(ctx.db, {
    select: `SELECT s.id, s.barcode, s.status, s.status_before_storage, s.sample_type, t.name AS test_name, st.received_at,
                    tg.hours AS target_hours, ${pastTargetSql('st.received_at')} AS past_target,
                    a.name AS account_name, p.first_name, p.last_name, p.study_id
               FROM ${STEPS_FROM} JOIN samples s ON s.id = st.sample_id ${TESTS_JOIN} ${TARGET_JOIN}
               LEFT JOIN accounts a ON a.id = s.account_id
               LEFT JOIN patients p ON p.id = s.patient_id
              WHERE ${filter.where}
              ORDER BY st.received_at ASC, s.id ASC, t.name ASC
              LIMIT :limit OFFSET :offset`,
    fromWhere: `FROM ${STEPS_FROM} JOIN samples s ON s.id = st.sample_id ${TESTS_JOIN} WHERE ${filter.where}`,
    replacements: { ...filter.replacements, now: now.toISOString(), limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) },
    constants: { inStorage: SampleStatus.InStorage },
    audit: { ...auditActor(caller), action: 'samples.worklist_viewed', entityKind: 'sample', details: { test: query.test ?? null, status: query.status ?? null, page: query.page } },
    idsKey: 'sampleIds',
  });
  return {
    total,
    rows: rows.map((r): LabWorklistRow => {
      const sample = { status: r.status, statusBeforeStorage: r.status_before_storage };
      return {
        sampleId: Number(r.id),
        barcode: r.barcode,
        testName: r.test_name,
        status: describeSampleStatus(sample),
        workStatus: workStatusOf(sample) as WorklistStatus,
        sampleType: r.sample_type,
        accountName: r.account_name,
        patient: patientShortName({ firstName: r.first_name, lastName: r.last_name, studyId: r.study_id }),
        receivedAt: new Date(r.received_at).toISOString(),
        hoursSinceReceipt: hoursSince(new Date(r.received_at), now),
        targetHours: r.target_hours === null ? null : Number(r.target_hours),
        pastTarget: r.past_target,
      };
    }),
  };
}

/** GET /api/lab-toolbox/worklist/tests: each test with samples waiting, its target and how many are past it. */
export async function labWorklistTests(ctx: Ctx, now = new Date()): Promise<WorklistTestCount[]> {
  const rows = await openSamplesByTest(ctx, now);
  return rows
    .map((r) => ({ testName: r.test_name, targetHours: r.target_hours === null ? null : Number(r.target_hours), open: r.open, openPastTarget: r.past }))
    .sort((a, b) => a.testName.localeCompare(b.testName));
}

/**
 * The clinic's result lists (SPEC §3 result list categories): pending, completed, patient-ordered
 * and pending-shipment-from-provider samples of one account, paginated and sortable by a fixed
 * set of fields. Which statuses each list holds is RESULT_LIST_STATUSES in domain/.
 */
import {
  DocumentType, patientOrderStage, PaymentStatus, PROCESSING_STEP_TESTS, ResultListCategory, RESULT_LIST_STATUSES, SampleStatus, TestOrigin, TestResultStatus, type PaymentMethod, type ResultListQuery, type ResultListRow, type ResultListSortField,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor } from '../audit';
import { patientSearchText } from '@platform/db';
import { containsPattern, dataDate } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';
import { searchWords } from '../patients/patient-search';
import { CLINIC_PATIENT_JOIN, CLINIC_PATIENT_SQL } from '../patients/clinic-patients';

type Ctx = Pick<ServerContext, 'db'>;

/**
 * SQL: a sample's released results (`hr`, of test `ht`) held from the patient until the clinic's
 * review (policy "To the clinic first", docs/patient-release.md), as rows `pr` of
 * patient_result_releases; `:releasedResult` is TestResultStatus.Released.
 */
export const HELD_FOR_REVIEW_FROM = `patient_result_releases pr
             JOIN test_results hr ON hr.id = pr.test_result_id AND hr.status = :releasedResult
             JOIN tests ht ON ht.id = hr.test_id`;
export const HELD_FOR_REVIEW_WHERE = 'pr.held_at IS NOT NULL AND pr.reviewed_at IS NULL AND pr.released_to_patient_at IS NULL';


/** Whitelisted sort fields and their SQL (never the client's text). */
const SORT_SQL: Record<ResultListSortField, string[]> = {
  barcode: ['s.barcode'],
  patientName: ['lower(p.last_name)', 'lower(p.first_name)'],
  status: ['s.status'],
  orderedAt: ['s.created_at'],
  // When the sample first reached a final status, kept on the sample by a trigger (indexed per account).
  resultedAt: ['s.resulted_at'],
};


const NULLABLE_SORTS = new Set<ResultListSortField>(['patientName', 'resultedAt']);

const DEFAULT_SORT: Record<ResultListCategory, { sort: ResultListSortField; order: 'asc' | 'desc' }> = {
  PENDING: { sort: 'orderedAt', order: 'desc' },
  COMPLETED: { sort: 'resultedAt', order: 'desc' },
  PATIENT_ORDERED: { sort: 'orderedAt', order: 'desc' },
  PENDING_SHIPMENT_FROM_PROVIDER: { sort: 'orderedAt', order: 'desc' },
};

/** The WHERE condition of a category; `needsOrder` when it reads the order (alias o). */
function categoryFilter(category: ResultListCategory): { sql: string; needsOrder: boolean; replacements: Record<string, unknown> } {
  if (category === ResultListCategory.PatientOrdered) {
    return { sql: 'o.origin = :origin', needsOrder: true, replacements: { origin: TestOrigin.PatientOrdered } };
  }
  // A sample In Storage counts by the status it left for storage.
  return {
    sql: `(s.status IN (:statuses) OR (s.status = :inStorage AND s.status_before_storage IN (:statuses)))`,
    needsOrder: false,
    replacements: { statuses: RESULT_LIST_STATUSES[category], inStorage: SampleStatus.InStorage },
  };
}

interface RawRow {
  id: number;
  barcode: string;
  status: string;
  status_before_storage: string | null;
  rejection_reason: string | null;
  sample_type: string | null;
  tests: string[] | null;
  order_id: number;
  order_number: string;
  origin: string;
  ordered_at: Date;
  resulted_at: Date | null;
  patient_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  physician_id: number | null;
  physician_first_name: string | null;
  physician_last_name: string | null;
  report_available: boolean;
  payment_status: PaymentStatus | null;
  payment_method: PaymentMethod | null;
  signed_off_at: Date | null;
  cancelled_at: Date | null;
  awaiting_tests: string[] | null;
  awaiting_due: Date | null;
}

/** A patient's own order: where it stands (stage, payment), as the Patient-ordered list shows it. */
function patientOrderOf(r: RawRow): ResultListRow['patientOrder'] {
  if (r.origin !== TestOrigin.PatientOrdered) return null;
  const paymentStatus = r.payment_status ?? PaymentStatus.AwaitingPayment;
  return {
    orderId: r.order_id, orderNumber: r.order_number, paymentStatus, paymentMethod: r.payment_method,
    stage: patientOrderStage({ paymentStatus, signedOffAt: r.signed_off_at, cancelledAt: r.cancelled_at }),
  };
}

/**
 * The search of a list (POST tests/search): each word of `q` in the patient's name (or email, as the
 * one patient search reads them), the sample's barcode or the order id. Values as replacements.
 */
function searchFilter(q: string | undefined): { sql: string; replacements: Record<string, unknown> } {
  if (q === undefined) return { sql: '', replacements: {} };
  const replacements: Record<string, unknown> = {};
  const sql = searchWords(q).map((word, i) => {
    replacements[`search${i}`] = containsPattern(word);
    return ` AND (${patientSearchText('p')} ILIKE :search${i} OR s.barcode ILIKE :search${i} OR o.order_number ILIKE :search${i})`;
  }).join('');
  return { sql, replacements };
}

export async function listResults(ctx: Ctx, caller: AccountCaller, query: ResultListQuery & { q?: string }): Promise<{ rows: ResultListRow[]; total: number }> {
  const filter = categoryFilter(query.category);
  const search = searchFilter(query.q);
  const sort = query.sort ?? DEFAULT_SORT[query.category].sort;
  const order = (query.order ?? (query.sort ? 'asc' : DEFAULT_SORT[query.category].order)) === 'desc' ? 'DESC' : 'ASC';
  // Only nullable fields name where NULLs go: a NOT NULL field sorted plainly keeps to its index's order.
  const nulls = !NULLABLE_SORTS.has(sort) ? '' : order === 'DESC' ? ' NULLS LAST' : ' NULLS FIRST';
  const orderBy = [...SORT_SQL[sort].map((e) => `${e} ${order}${nulls}`), `s.id ${order}`].join(', ');
  const constants = {
    ...filter.replacements,
    labReport: DocumentType.LabReport,
    releasedResult: TestResultStatus.Released,
    // The lab's processing steps (DNA Extraction) are not the clinic's tests.
    processingSteps: [...PROCESSING_STEP_TESTS],
  };
  const replacements = {
    accountId: caller.accountId,
    limit: query.pageSize,
    offset: offsetOf(query.page, query.pageSize),
    physicianId: query.physicianId ?? null,
    ...search.replacements,
  };
  // Tests by physician (SPEC §7): only the samples this physician ordered.
  const byPhysician = query.physicianId === undefined ? '' : ' AND o.physician_id = :physicianId';
  const needsOrder = filter.needsOrder || byPhysician !== '' || search.sql !== '';
  const where = `s.account_id = :accountId AND ${filter.sql}${byPhysician}${search.sql} AND ${CLINIC_PATIENT_SQL}`;
  const countFrom = `FROM samples s ${CLINIC_PATIENT_JOIN} ${needsOrder ? 'JOIN orders o ON o.id = s.order_id' : ''} WHERE ${where}`;
  // aw: the sample's results held from the patient until this clinic's review (policy "To the clinic first").
  const { rows: raw, total } = await auditedPage<RawRow>(ctx.db, {
    select: `SELECT s.id, s.barcode, s.status, s.status_before_storage, s.rejection_reason, s.sample_type,
              (SELECT array_agg(t.name ORDER BY t.id) FROM tests t WHERE t.sample_id = s.id AND t.name NOT IN (:processingSteps)) AS tests,
              o.id AS order_id, o.order_number, o.origin, s.created_at AS ordered_at,
              o.payment_status, o.payment_method, o.signed_off_at, o.cancelled_at,
              s.resulted_at,
              p.id AS patient_id, p.first_name, p.last_name, p.date_of_birth,
              ph.id AS physician_id, ph.first_name AS physician_first_name, ph.last_name AS physician_last_name,
              EXISTS (SELECT 1 FROM documents d WHERE d.sample_id = s.id AND d.type = :labReport AND d.superseded_at IS NULL) AS report_available,
              aw.awaiting_tests, aw.awaiting_due
         FROM samples s
         LEFT JOIN LATERAL (
           SELECT array_agg(ht.name ORDER BY ht.id) AS awaiting_tests, min(pr.release_due_at) AS awaiting_due
             FROM ${HELD_FOR_REVIEW_FROM}
            WHERE pr.sample_id = s.id AND ${HELD_FOR_REVIEW_WHERE}
         ) aw ON true
         JOIN orders o ON o.id = s.order_id
         ${CLINIC_PATIENT_JOIN}
         LEFT JOIN physicians ph ON ph.id = o.physician_id
        WHERE ${where}
        ORDER BY ${orderBy}
        LIMIT :limit OFFSET :offset`,
    fromWhere: countFrom,
    replacements,
    constants,
    audit: {
      ...auditActor(caller),
      action: 'samples.listed',
      entityKind: 'sample',
      // Whether the list was searched, never the words searched for (a patient's name).
      details: { accountId: caller.accountId, category: query.category, physicianId: query.physicianId ?? null, page: query.page, ...(query.q === undefined ? {} : { searched: true }) },
    },
    idsKey: 'sampleIds',
  });
  const rows = raw.map((r): ResultListRow => ({
    sampleId: r.id,
    barcode: r.barcode,
    status: r.status,
    statusBeforeStorage: r.status_before_storage,
    rejectionReason: r.rejection_reason,
    sampleType: r.sample_type,
    tests: r.tests ?? [],
    orderId: r.order_id,
    orderNumber: r.order_number,
    origin: r.origin,
    orderedAt: new Date(r.ordered_at).toISOString(),
    resultedAt: r.resulted_at ? new Date(r.resulted_at).toISOString() : null,
    patient: { id: r.patient_id, firstName: r.first_name, lastName: r.last_name, dateOfBirth: dataDate(r.date_of_birth)! },
    physician: r.physician_id ? { id: r.physician_id, name: `${r.physician_first_name} ${r.physician_last_name}` } : null,
    reportAvailable: r.report_available,
    patientOrder: patientOrderOf(r),
    awaitingReview: r.awaiting_tests?.length && r.awaiting_due ? { tests: r.awaiting_tests, releaseDueAt: new Date(r.awaiting_due).toISOString() } : null,
  }));
  return { rows, total };
}

/**
 * What needs a clinic (issue 30, part 5; docs/worklists.md), counted for its home page in one
 * statement: results held for its review, its patients' orders waiting for a physician's sign-off,
 * kits still at the clinic, and the lab's questions its patients have not answered yet. Each count
 * is of the one account the caller works in (checked by the route), over the same samples its lists
 * show (named patients, never research participants), and each condition is the one the list it
 * links to uses (imported from that list's capability, never written again here).
 */
import { QueryTypes } from 'sequelize';
import { CLINIC_NEEDS_QUESTIONS_SHOWN, TestResultStatus, type ClinicNeeds } from '@platform/domain';
import type { ServerContext } from '../context';
import type { AccountCaller } from '../audit';
import { CLINIC_PATIENT_JOIN, CLINIC_PATIENT_SQL } from '../patients/clinic-patients';
import { UNSHIPPED_CONSTANTS, UNSHIPPED_SQL } from '../shipments/shipments';
import { LAB_QUESTION_WAITING_CONSTANTS, LAB_QUESTION_WAITING_SQL } from '../follow-ups/lab-questions';
import { HELD_FOR_REVIEW_FROM, HELD_FOR_REVIEW_WHERE } from '../results/result-lists';
import { AWAITING_SIGN_OFF_CONSTANTS, AWAITING_SIGN_OFF_SQL } from '../patient-orders/patient-order-view';

type Ctx = Pick<ServerContext, 'db'>;

/** The account's samples of named patients (as its lists): `s` and `p`. */
const ACCOUNT_SAMPLES = `samples s ${CLINIC_PATIENT_JOIN}`;
const OF_ACCOUNT = `s.account_id = :accountId AND ${CLINIC_PATIENT_SQL}`;

const NEEDS_SQL = `
SELECT
  (SELECT count(DISTINCT pr.sample_id)::int FROM ${HELD_FOR_REVIEW_FROM} JOIN ${ACCOUNT_SAMPLES} ON s.id = pr.sample_id
    WHERE ${HELD_FOR_REVIEW_WHERE} AND ${OF_ACCOUNT}) AS results_to_review,
  (SELECT count(*)::int FROM ${ACCOUNT_SAMPLES} JOIN orders o ON o.id = s.order_id
    WHERE ${OF_ACCOUNT} AND ${AWAITING_SIGN_OFF_SQL}) AS orders_awaiting_sign_off,
  (SELECT count(*)::int FROM ${ACCOUNT_SAMPLES} WHERE ${OF_ACCOUNT} AND ${UNSHIPPED_SQL}) AS kits_to_ship,
  (SELECT count(*)::int FROM sample_follow_ups f JOIN ${ACCOUNT_SAMPLES} ON s.id = f.sample_id
    WHERE ${LAB_QUESTION_WAITING_SQL} AND ${OF_ACCOUNT}) AS lab_questions,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('sampleId', q.sample_id, 'barcode', q.barcode, 'patientId', q.patient_id, 'askedAt', q.asked_at) ORDER BY q.asked_at DESC, q.id DESC), '[]'::jsonb)
     FROM (SELECT f.id, f.sample_id, s.barcode, s.patient_id, f.created_at AS asked_at
             FROM sample_follow_ups f JOIN ${ACCOUNT_SAMPLES} ON s.id = f.sample_id
            WHERE ${LAB_QUESTION_WAITING_SQL} AND ${OF_ACCOUNT}
            ORDER BY f.created_at DESC, f.id DESC LIMIT ${CLINIC_NEEDS_QUESTIONS_SHOWN}) q) AS lab_question_samples`;

interface NeedsRow {
  results_to_review: number;
  orders_awaiting_sign_off: number;
  kits_to_ship: number;
  lab_questions: number;
  lab_question_samples: { sampleId: number | string; barcode: string; patientId: number | string; askedAt: string }[];
}

/** GET /api/provider-clinic/{accountId}/needs: the caller's account's counts (no patient data: not audited as a read of it). */
export async function clinicNeeds(ctx: Ctx, caller: AccountCaller): Promise<ClinicNeeds> {
  const [row] = await ctx.db.sequelize.query<NeedsRow>(NEEDS_SQL, {
    replacements: {
      accountId: caller.accountId, releasedResult: TestResultStatus.Released,
      ...UNSHIPPED_CONSTANTS, ...AWAITING_SIGN_OFF_CONSTANTS, ...LAB_QUESTION_WAITING_CONSTANTS,
    },
    type: QueryTypes.SELECT,
  });
  return {
    resultsToReview: row.results_to_review,
    ordersAwaitingSignOff: row.orders_awaiting_sign_off,
    kitsToShip: row.kits_to_ship,
    labQuestions: row.lab_questions,
    labQuestionSamples: row.lab_question_samples.map((q) => ({
      sampleId: Number(q.sampleId), barcode: q.barcode, patientId: Number(q.patientId), askedAt: new Date(q.askedAt).toISOString(),
    })),
  };
}

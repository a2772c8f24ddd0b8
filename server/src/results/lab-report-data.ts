/**
 * Everything the lab report PDF of one result version prints, read in ONE query as plain values
 * (no model instances): the version with its test and the users who entered and approved it, the
 * released version it replaced, the sample with its patient, account, order and physician, and
 * the other released results of the sample. What counts as a correction is released-results'
 * rule (isCorrection), applied to what the query read.
 */
import type { Db } from '@platform/db';
import { PROCESSING_STEP_TESTS, resultInterpretationText, resultValueText, TestResultStatus } from '@platform/domain';
import { isCorrection } from './released-results';

interface PersonName { firstName: string; lastName: string }

export interface LabReportData {
  result: {
    id: number;
    status: string;
    version: number;
    value: string;
    correctionReason: string | null;
    importJobId: number | null;
    createdAt: Date;
    reviewedAt: Date | null;
    enteredBy: PersonName | null;
    reviewedBy: PersonName | null;
  };
  test: { id: number; name: string; sampleId: number };
  /** The value in words, its interpretation, and whether (and what) it corrects. */
  valueText: string;
  interpretation: string | null;
  corrected: boolean;
  replaced: { value: string; reviewedAt: Date | null } | null;
  /** Null when the result's test is not of the sample asked for. */
  sample: {
    barcode: string;
    sampleType: string | null;
    collectedAt: Date | null;
    receivedAt: Date | null;
    patient: { firstName: string | null; lastName: string | null; studyId: string | null; dateOfBirth: string | null; sex: string | null; medicalRecordNumber: string | null };
    accountName: string | null;
    order: { orderNumber: string; physician: (PersonName & { npi: string | null }) | null } | null;
  } | null;
  /** The released results of the sample's other tests (processing steps left out), in test order. */
  others: { testName: string; valueText: string; corrected: boolean; reviewedAt: Date | null }[];
  /** The electronic signatures of this version, oldest first (a correction's entry, then the approval): the report's manifest. */
  signatures: { printedName: string; signedAt: Date; meaning: string; reason: string | null }[];
}

interface Row {
  id: number; status: string; version: number; value: string; correction_reason: string | null; import_job_id: number | null;
  created_at: Date; reviewed_at: Date | null;
  entered_by: PersonName | null; reviewed_by: PersonName | null;
  test_id: number; test_name: string; sample_id: number;
  replaced: { value: string; reviewedAt: string | null } | null;
  barcode: string | null; sample_type: string | null; collected_at: Date | null; received_at: Date | null;
  patient_first_name: string | null; patient_last_name: string | null; study_id: string | null; date_of_birth: string | null; sex: string | null; medical_record_number: string | null;
  account_name: string | null;
  order: { orderNumber: string; physician: (PersonName & { npi: string | null }) | null } | null;
  others: { testName: string; value: string; correctionReason: string | null; reviewedAt: string | null; replacedOne: boolean }[] | null;
  signatures: { printedName: string; signedAt: string; meaning: string; reason: string | null }[] | null;
}

// $1 result id, $2 sample id, $3 Released, $4 Superseded, $5 the processing-step tests (domain/).
// The rows around the result are read by scalar subqueries, not joins: planning a ten-table join
// took longer than running it.
const REPORT_SQL = `
SELECT r.id, r.status, r.version, r.value, r.correction_reason, r.import_job_id, r.created_at, r.reviewed_at,
       (SELECT json_build_object('firstName', u.first_name, 'lastName', u.last_name) FROM users u WHERE u.id = r.entered_by_user_id) AS entered_by,
       (SELECT json_build_object('firstName', u.first_name, 'lastName', u.last_name) FROM users u WHERE u.id = r.reviewed_by_user_id) AS reviewed_by,
       t.id AS test_id, t.name AS test_name, t.sample_id,
       (SELECT json_build_object('value', x.value, 'reviewedAt', x.reviewed_at) FROM test_results x
         WHERE x.test_id = r.test_id AND x.version < r.version AND x.status = $4 ORDER BY x.version DESC LIMIT 1) AS replaced,
       s.barcode, s.sample_type, s.collected_at, s.received_at,
       p.first_name AS patient_first_name, p.last_name AS patient_last_name, p.study_id, p.date_of_birth::text AS date_of_birth,
       p.sex, p.medical_record_number,
       (SELECT a.name FROM accounts a WHERE a.id = s.account_id) AS account_name,
       (SELECT json_build_object('orderNumber', o.order_number, 'physician',
               (SELECT json_build_object('firstName', ph.first_name, 'lastName', ph.last_name, 'npi', ph.npi) FROM physicians ph WHERE ph.id = o.physician_id))
          FROM orders o WHERE o.id = s.order_id) AS "order",
       (SELECT json_agg(json_build_object(
                 'testName', ot.name, 'value', orr.value, 'correctionReason', orr.correction_reason, 'reviewedAt', orr.reviewed_at,
                 'replacedOne', EXISTS (SELECT 1 FROM test_results x WHERE x.test_id = ot.id AND x.version < orr.version AND x.status = $4))
               ORDER BY ot.id)
          FROM tests ot JOIN test_results orr ON orr.test_id = ot.id AND orr.status = $3
         WHERE ot.sample_id = s.id AND ot.id <> t.id AND NOT (ot.name = ANY($5::text[]))) AS others,
       (SELECT json_agg(json_build_object('printedName', sg.printed_name, 'signedAt', sg.signed_at, 'meaning', sg.meaning, 'reason', sg.reason)
               ORDER BY sg.signed_at, sg.id)
          FROM signed_results sr JOIN signatures sg ON sg.id = sr.signature_id WHERE sr.test_result_id = r.id) AS signatures
  FROM test_results r
  JOIN tests t ON t.id = r.test_id
  LEFT JOIN samples s ON s.id = t.sample_id AND s.id = $2
  LEFT JOIN patients p ON p.id = s.patient_id
 WHERE r.id = $1`;

const timestamp = (iso: string | null) => (iso === null ? null : new Date(iso));

/** The report's data, or null when the result version does not exist. */
export async function loadLabReportData(db: Db, sampleId: number, testResultId: number): Promise<LabReportData | null> {
  // A named statement on the prepared pool: each connection plans it once (for a query run once per
  // document, planning took longer than running it).
  const { rows: [row] } = await db.preparedPool().query<Row>({
    name: 'lab-report-data',
    text: REPORT_SQL,
    values: [testResultId, sampleId, TestResultStatus.Released, TestResultStatus.Superseded, PROCESSING_STEP_TESTS],
  });
  if (!row) return null;
  const replaced = row.replaced ? { value: row.replaced.value, reviewedAt: timestamp(row.replaced.reviewedAt) } : null;
  return {
    result: {
      id: row.id, status: row.status, version: row.version, value: row.value, correctionReason: row.correction_reason,
      importJobId: row.import_job_id, createdAt: row.created_at, reviewedAt: row.reviewed_at, enteredBy: row.entered_by, reviewedBy: row.reviewed_by,
    },
    test: { id: row.test_id, name: row.test_name, sampleId: row.sample_id },
    valueText: resultValueText(row.test_name, row.value),
    interpretation: resultInterpretationText(row.test_name, row.value),
    corrected: isCorrection(row.correction_reason, replaced),
    replaced,
    sample: row.barcode === null ? null : {
      barcode: row.barcode, sampleType: row.sample_type, collectedAt: row.collected_at, receivedAt: row.received_at,
      patient: {
        firstName: row.patient_first_name, lastName: row.patient_last_name, studyId: row.study_id,
        dateOfBirth: row.date_of_birth, sex: row.sex, medicalRecordNumber: row.medical_record_number,
      },
      accountName: row.account_name,
      order: row.order,
    },
    others: (row.others ?? []).map((o) => ({
      testName: o.testName,
      valueText: resultValueText(o.testName, o.value),
      corrected: isCorrection(o.correctionReason, o.replacedOne ? true : null),
      reviewedAt: timestamp(o.reviewedAt),
    })),
    signatures: (row.signatures ?? []).map((sg) => ({ ...sg, signedAt: new Date(sg.signedAt) })),
  };
}

/**
 * Complete clinical orders (issue 31, item 4; docs/clinical-orders.md): an order's ICD-10-CM
 * diagnosis codes, each with CMS's description as it was when the order was placed (a JSON array
 * of { code, description }, in the order the clinic gave them), and the corrections history of a
 * patient's details (who, when, why, every changed field's old and new value). Cancelling a
 * clinic order uses the columns patients' own orders already cancel with (orders.cancelled_at …).
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE orders
  ADD COLUMN diagnosis_codes jsonb NOT NULL DEFAULT '[]'::jsonb
    CONSTRAINT orders_diagnosis_codes_check CHECK (jsonb_typeof(diagnosis_codes) = 'array');

CREATE TABLE patient_corrections (
  id bigserial PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id),
  account_id bigint REFERENCES accounts (id),
  corrected_by_user_id bigint REFERENCES users (id),
  reason text NOT NULL CONSTRAINT patient_corrections_reason_check CHECK (length(btrim(reason)) > 0),
  -- Only the fields that changed: { field: value } before and after.
  before jsonb NOT NULL,
  after jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX patient_corrections_patient_idx ON patient_corrections (patient_id, created_at);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE patient_corrections;
ALTER TABLE orders DROP COLUMN diagnosis_codes;
`);
};

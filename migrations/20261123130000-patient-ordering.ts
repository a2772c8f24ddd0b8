/**
 * Patient ordering (issue 9): what a patient order records (product, eligibility answers, payment
 * method and status, MiraKind and its donation, insurance member id, the financial-assistance
 * record, the hash of the browser's order token, the invitation it came from, sign-off,
 * cancellation, paid and refunded times), invitations per product and used once, the payment
 * provider's events applied once, and kit shipments to a patient.
 */
import { PATIENT_PRODUCTS, PAYMENT_METHODS, PAYMENT_STATUSES } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE orders
  ADD COLUMN product text CONSTRAINT orders_product_check CHECK (${oneOf('product', PATIENT_PRODUCTS)}),
  ADD COLUMN eligibility_answers jsonb,
  ADD COLUMN payment_method text CONSTRAINT orders_payment_method_check CHECK (${oneOf('payment_method', PAYMENT_METHODS)}),
  ADD CONSTRAINT orders_payment_status_check CHECK (${oneOf('payment_status', PAYMENT_STATUSES)}),
  ADD COLUMN mirakind boolean NOT NULL DEFAULT false,
  ADD COLUMN donation_cents integer CONSTRAINT orders_donation_cents_check CHECK (donation_cents >= 0),
  ADD COLUMN insurance_member_id text,
  ADD COLUMN financial_assistance_record_id bigint REFERENCES financial_assistance_records (id),
  ADD COLUMN order_token_hash text CONSTRAINT orders_order_token_hash_key UNIQUE,
  ADD COLUMN invitation_id bigint REFERENCES patient_invitations (id),
  ADD COLUMN referral_other text,
  ADD COLUMN signed_off_at timestamptz,
  ADD COLUMN signed_off_by_user_id bigint REFERENCES users (id),
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancelled_by_user_id bigint REFERENCES users (id),
  ADD COLUMN cancellation_reason text,
  ADD COLUMN paid_at timestamptz,
  ADD COLUMN refunded_at timestamptz,
  ADD CONSTRAINT orders_cancellation_check CHECK ((cancelled_at IS NULL) = (cancellation_reason IS NULL));
CREATE INDEX orders_invitation_id_idx ON orders (invitation_id);

ALTER TABLE patient_invitations
  ADD COLUMN product text NOT NULL DEFAULT ${literal(PATIENT_PRODUCTS[0])} CONSTRAINT patient_invitations_product_check CHECK (${oneOf('product', PATIENT_PRODUCTS)}),
  ADD COLUMN order_id bigint CONSTRAINT patient_invitations_order_id_key UNIQUE REFERENCES orders (id),
  ADD COLUMN used_at timestamptz,
  ADD COLUMN last_sent_at timestamptz,
  ADD COLUMN send_count integer NOT NULL DEFAULT 0 CONSTRAINT patient_invitations_send_count_check CHECK (send_count >= 0);
ALTER TABLE patient_invitations ALTER COLUMN product DROP DEFAULT;

-- One row per payment-provider event: its id is applied once (a replay finds the row).
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  payment_intent_id text,
  order_id bigint REFERENCES orders (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_events_order_id_idx ON payment_events (order_id);

-- A kit shipped to a patient (a patient order), rather than from a clinic to the lab.
ALTER TABLE shipments ADD COLUMN patient_id bigint REFERENCES patients (id);
CREATE INDEX shipments_patient_id_idx ON shipments (patient_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX shipments_patient_id_idx;
ALTER TABLE shipments DROP COLUMN patient_id;
DROP TABLE payment_events;
ALTER TABLE patient_invitations DROP COLUMN send_count, DROP COLUMN last_sent_at, DROP COLUMN used_at, DROP COLUMN order_id, DROP COLUMN product;
DROP INDEX orders_invitation_id_idx;
ALTER TABLE orders
  DROP CONSTRAINT orders_cancellation_check,
  DROP COLUMN refunded_at, DROP COLUMN paid_at, DROP COLUMN cancellation_reason, DROP COLUMN cancelled_by_user_id, DROP COLUMN cancelled_at,
  DROP COLUMN signed_off_by_user_id, DROP COLUMN signed_off_at, DROP COLUMN referral_other, DROP COLUMN invitation_id, DROP COLUMN order_token_hash,
  DROP COLUMN financial_assistance_record_id, DROP COLUMN insurance_member_id, DROP COLUMN donation_cents, DROP COLUMN mirakind,
  DROP CONSTRAINT orders_payment_status_check, DROP COLUMN payment_method, DROP COLUMN eligibility_answers, DROP COLUMN product;
`);
};

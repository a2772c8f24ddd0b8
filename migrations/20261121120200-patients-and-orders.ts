/** Patients and what they are ordered: patients, invitations, insurance plans, financial assistance, orders. */
import { ACCESS_STATUSES, AccessStatus, PORTALS, TEST_ORIGINS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';
import { INVITATION_STATUSES, InvitationStatus } from '../db/src/values';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE insurance_plans (
  id bigserial PRIMARY KEY,
  name text NOT NULL CONSTRAINT insurance_plans_name_key UNIQUE CONSTRAINT insurance_plans_name_check CHECK (btrim(name) <> ''),
  payer_code text,
  is_active boolean NOT NULL DEFAULT true,
  ${TIMESTAMPS}
);

-- account_id is null for patients who ordered for themselves.
CREATE TABLE patients (
  id bigserial PRIMARY KEY,
  account_id bigint REFERENCES accounts (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  date_of_birth date NOT NULL,
  sex text,
  email text,
  phone text,
  address_line1 text,
  address_line2 text,
  city text,
  state text,
  postal_code text,
  country text,
  medical_record_number text,
  ${TIMESTAMPS}
);
CREATE INDEX patients_account_name_idx ON patients (account_id, last_name, first_name);
CREATE INDEX patients_search_idx ON patients (lower(last_name), lower(first_name), date_of_birth);

CREATE TABLE patient_invitations (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  patient_id bigint REFERENCES patients (id),
  email text NOT NULL,
  first_name text,
  last_name text,
  status text NOT NULL DEFAULT ${literal(InvitationStatus.Requested)}
    CONSTRAINT patient_invitations_status_check CHECK (${oneOf('status', INVITATION_STATUSES)}),
  token_hash text NOT NULL CONSTRAINT patient_invitations_token_hash_key UNIQUE,
  created_by_user_id bigint REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  ${TIMESTAMPS}
);
CREATE INDEX patient_invitations_account_idx ON patient_invitations (account_id, created_at);
CREATE INDEX patient_invitations_patient_id_idx ON patient_invitations (patient_id);

CREATE TABLE financial_assistance_records (
  id bigserial PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id),
  status text NOT NULL DEFAULT ${literal(AccessStatus.Pending)}
    CONSTRAINT financial_assistance_records_status_check CHECK (${oneOf('status', ACCESS_STATUSES)}),
  household_size integer CONSTRAINT financial_assistance_records_household_size_check CHECK (household_size > 0),
  annual_income_cents bigint CONSTRAINT financial_assistance_records_annual_income_cents_check CHECK (annual_income_cents >= 0),
  decided_by_user_id bigint REFERENCES users (id),
  decided_at timestamptz,
  notes text,
  ${TIMESTAMPS}
);
CREATE INDEX financial_assistance_records_patient_id_idx ON financial_assistance_records (patient_id);
CREATE INDEX financial_assistance_records_status_idx ON financial_assistance_records (status, created_at);

CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  order_number text NOT NULL CONSTRAINT orders_order_number_key UNIQUE,
  account_id bigint REFERENCES accounts (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  physician_id bigint REFERENCES physicians (id),
  origin text NOT NULL CONSTRAINT orders_origin_check CHECK (${oneOf('origin', TEST_ORIGINS)}),
  portal text NOT NULL CONSTRAINT orders_portal_check CHECK (${oneOf('portal', PORTALS)}),
  created_by_user_id bigint REFERENCES users (id),
  attestations jsonb,
  price_cents integer CONSTRAINT orders_price_cents_check CHECK (price_cents >= 0),
  payment_status text,
  stripe_payment_intent_id text CONSTRAINT orders_stripe_payment_intent_id_key UNIQUE,
  referral_source text,
  insurance_plan_id bigint REFERENCES insurance_plans (id),
  ${TIMESTAMPS}
);
CREATE INDEX orders_account_created_at_idx ON orders (account_id, created_at);
CREATE INDEX orders_patient_id_idx ON orders (patient_id);
CREATE INDEX orders_physician_id_idx ON orders (physician_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE orders;
DROP TABLE financial_assistance_records;
DROP TABLE patient_invitations;
DROP TABLE patients;
DROP TABLE insurance_plans;
`);
};

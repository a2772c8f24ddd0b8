/** People and accounts: users (every sign-in), accounts, departments, provider contacts and their access. */
import {
  ACCESS_STATUSES,
  ACCOUNT_ROLES,
  ACCOUNT_TYPES,
  AccessStatus,
  AccountType,
  PROVIDER_TITLES,
  SPECIALTIES,
  USER_KINDS,
} from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CONSTRAINT users_kind_check CHECK (${oneOf('kind', USER_KINDS)}),
  email text NOT NULL CONSTRAINT users_email_check CHECK (position('@' in email) > 1),
  password_hash text,
  first_name text NOT NULL,
  last_name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  last_login_at timestamptz,
  ${TIMESTAMPS}
);
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
CREATE INDEX users_kind_name_idx ON users (kind, last_name, first_name);

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  name text NOT NULL CONSTRAINT accounts_name_check CHECK (btrim(name) <> ''),
  type text NOT NULL DEFAULT ${literal(AccountType.General)} CONSTRAINT accounts_type_check CHECK (${oneOf('type', ACCOUNT_TYPES)}),
  eap_partner boolean NOT NULL DEFAULT false,
  international boolean NOT NULL DEFAULT false,
  clinic_access boolean NOT NULL DEFAULT false,
  research_access boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  ${TIMESTAMPS}
);
CREATE INDEX accounts_name_idx ON accounts (lower(name));

CREATE TABLE departments (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL CONSTRAINT departments_name_check CHECK (btrim(name) <> ''),
  ${TIMESTAMPS},
  CONSTRAINT departments_account_id_name_key UNIQUE (account_id, name)
);

CREATE TABLE contacts (
  id bigserial PRIMARY KEY,
  user_id bigint CONSTRAINT contacts_user_id_key UNIQUE REFERENCES users (id) ON DELETE SET NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  title text CONSTRAINT contacts_title_check CHECK (${oneOf('title', PROVIDER_TITLES)}),
  specialty text CONSTRAINT contacts_specialty_check CHECK (${oneOf('specialty', SPECIALTIES)}),
  npi text,
  access_status text NOT NULL DEFAULT ${literal(AccessStatus.Pending)}
    CONSTRAINT contacts_access_status_check CHECK (${oneOf('access_status', ACCESS_STATUSES)}),
  requested_account_name text,
  decided_by_user_id bigint REFERENCES users (id),
  decided_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX contacts_access_status_idx ON contacts (access_status, created_at);
CREATE INDEX contacts_email_idx ON contacts (lower(email));
CREATE INDEX contacts_name_idx ON contacts (last_name, first_name);

CREATE TABLE account_memberships (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  role text NOT NULL CONSTRAINT account_memberships_role_check CHECK (${oneOf('role', ACCOUNT_ROLES)}),
  is_active boolean NOT NULL DEFAULT true,
  ${TIMESTAMPS},
  CONSTRAINT account_memberships_account_id_contact_id_key UNIQUE (account_id, contact_id)
);
CREATE INDEX account_memberships_contact_id_idx ON account_memberships (contact_id);

CREATE TABLE physicians (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  contact_id bigint REFERENCES contacts (id) ON DELETE SET NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  npi text,
  specialty text CONSTRAINT physicians_specialty_check CHECK (${oneOf('specialty', SPECIALTIES)}),
  ${TIMESTAMPS},
  CONSTRAINT physicians_account_id_contact_id_key UNIQUE (account_id, contact_id)
);
CREATE INDEX physicians_account_name_idx ON physicians (account_id, last_name, first_name);
CREATE INDEX physicians_contact_id_idx ON physicians (contact_id);

CREATE TABLE provider_staff_relationships (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  physician_contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  staff_contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  ${TIMESTAMPS},
  CONSTRAINT provider_staff_relationships_key UNIQUE (account_id, physician_contact_id, staff_contact_id),
  CONSTRAINT provider_staff_relationships_distinct_check CHECK (physician_contact_id <> staff_contact_id)
);
CREATE INDEX provider_staff_relationships_staff_idx ON provider_staff_relationships (account_id, staff_contact_id);

CREATE TABLE technicians (
  id bigserial PRIMARY KEY,
  user_id bigint CONSTRAINT technicians_user_id_key UNIQUE REFERENCES users (id) ON DELETE SET NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text,
  ${TIMESTAMPS}
);

CREATE TABLE password_reset_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL CONSTRAINT password_reset_tokens_token_hash_key UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX password_reset_tokens_user_id_idx ON password_reset_tokens (user_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE password_reset_tokens;
DROP TABLE technicians;
DROP TABLE provider_staff_relationships;
DROP TABLE physicians;
DROP TABLE account_memberships;
DROP TABLE contacts;
DROP TABLE departments;
DROP TABLE accounts;
DROP TABLE users;
`);
};

/**
 * Two-factor sign-in (issue 29, part 1): each user's factors (a TOTP secret, encrypted with
 * MFA_SECRET_KEY, with the last time step accepted so a code is never taken twice; a passkey's
 * credential id and public key), their single-use recovery codes (hashed), the browsers they asked
 * to remember (the token hashed), and an account's "Require two-factor sign-in".
 */
import { TWO_FACTOR_KINDS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE accounts ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;

CREATE TABLE two_factor_factors (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CONSTRAINT two_factor_factors_kind_check CHECK (${oneOf('kind', TWO_FACTOR_KINDS)}),
  label text NOT NULL,
  totp_secret_encrypted text,
  totp_last_time_step bigint,
  credential_id text CONSTRAINT two_factor_factors_credential_id_key UNIQUE,
  public_key text,
  sign_count bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CONSTRAINT two_factor_factors_shape_check CHECK (
    (kind = 'totp' AND totp_secret_encrypted IS NOT NULL AND credential_id IS NULL)
    OR (kind = 'passkey' AND credential_id IS NOT NULL AND public_key IS NOT NULL AND confirmed_at IS NOT NULL))
);
CREATE INDEX two_factor_factors_user_idx ON two_factor_factors (user_id);

CREATE TABLE two_factor_recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_recovery_codes_user_idx ON two_factor_recovery_codes (user_id, code_hash);

CREATE TABLE remembered_devices (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL CONSTRAINT remembered_devices_token_hash_key UNIQUE,
  user_agent text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX remembered_devices_user_idx ON remembered_devices (user_id);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE remembered_devices;
DROP TABLE two_factor_recovery_codes;
DROP TABLE two_factor_factors;
ALTER TABLE accounts DROP COLUMN require_two_factor;`);
};

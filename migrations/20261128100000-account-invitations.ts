/**
 * An account's Super Admin adds people by invitation (issue 24, hole 7): whether the address is
 * new to the platform or already signs in elsewhere, the answer, the list ("Invited, awaiting
 * acceptance") and the email are the same, so adding a user no longer tells a Super Admin who
 * exists. The person named joins the account when they accept through the emailed link (a new
 * person then chooses a password). Only the token's SHA-256 is stored; one pending invitation per
 * address and account.
 */
import { ACCOUNT_INVITATION_STATUSES, AccountInvitationStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE account_invitations (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  email text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text,
  title text NOT NULL,
  specialty text,
  npi text,
  role text NOT NULL,
  status text NOT NULL DEFAULT ${literal(AccountInvitationStatus.Pending)} CONSTRAINT account_invitations_status_check CHECK (${oneOf('status', ACCOUNT_INVITATION_STATUSES)}),
  token_hash text NOT NULL CONSTRAINT account_invitations_token_hash_key UNIQUE,
  invited_by_user_id bigint REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  contact_id bigint REFERENCES contacts (id),
  ${TIMESTAMPS}
);
CREATE UNIQUE INDEX account_invitations_pending_key ON account_invitations (account_id, lower(email)) WHERE status = ${literal(AccountInvitationStatus.Pending)};
CREATE INDEX account_invitations_account_idx ON account_invitations (account_id, created_at);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE account_invitations;');
};

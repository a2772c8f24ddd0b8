/**
 * Accounts' addresses and phone (issue 31, part 2): a shipping address (where kits and parcels
 * go) and a billing address, at most one of each per account, in one table so the address's
 * columns are written once; and the account's phone. Both may be absent (older accounts).
 */
import { ACCOUNT_ADDRESS_KINDS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf, TIMESTAMPS } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE accounts ADD COLUMN phone text;

CREATE TABLE account_addresses (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind text NOT NULL CONSTRAINT account_addresses_kind_check CHECK (${oneOf('kind', ACCOUNT_ADDRESS_KINDS)}),
  address_line1 text NOT NULL CONSTRAINT account_addresses_line1_check CHECK (btrim(address_line1) <> ''),
  address_line2 text,
  city text NOT NULL CONSTRAINT account_addresses_city_check CHECK (btrim(city) <> ''),
  state text,
  postal_code text NOT NULL,
  country text NOT NULL DEFAULT 'US' CONSTRAINT account_addresses_country_check CHECK (country ~ '^[A-Z]{2}$'),
  ${TIMESTAMPS},
  CONSTRAINT account_addresses_account_id_kind_key UNIQUE (account_id, kind)
);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE account_addresses;
ALTER TABLE accounts DROP COLUMN phone;`);
};

/**
 * A removed account access is kept as a row marked removed (removed_at), no longer deleted: the
 * account's Super Admin still finds the person (shown with no access) and can give them access
 * again. A removed row never grants anything: it is inactive too (the CHECK), and every reader of
 * access already asks for is_active.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE account_memberships
  ADD COLUMN removed_at timestamptz,
  ADD CONSTRAINT account_memberships_removed_inactive_check CHECK (removed_at IS NULL OR NOT is_active);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  // Before this migration a removal deleted the row.
  await sequelize.query(`
DELETE FROM account_memberships WHERE removed_at IS NOT NULL;
ALTER TABLE account_memberships DROP COLUMN removed_at;`);
};

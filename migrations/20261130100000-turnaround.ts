/**
 * Turnaround (issue 30, part 4; docs/turnaround.md).
 * - turnaround_targets: the lab admin's target per test, receipt → result, in hours or days (no
 *   row: no target); who set it last (every change is also audited with its old and new values).
 * - sample_status_events (to_status, created_at) INCLUDE (sample_id, from_status): the dashboard's
 *   range scans of one step (results, releases, receipts, rejections in a time range) read the index
 *   alone.
 * - sample_status_events (sample_id, to_status) INCLUDE (from_status, created_at): a sample's step
 *   (its receipt, its shipment) found from the sample, index only.
 */
import { MAX_TARGET, TARGET_UNITS, TURNAROUND_TESTS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE turnaround_targets (
  test_name text PRIMARY KEY CONSTRAINT turnaround_targets_test_name_check CHECK (${oneOf('test_name', TURNAROUND_TESTS)}),
  amount integer NOT NULL,
  unit text NOT NULL CONSTRAINT turnaround_targets_unit_check CHECK (${oneOf('unit', TARGET_UNITS)}),
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT turnaround_targets_amount_check
    CHECK (amount >= 1 AND amount <= CASE unit WHEN 'days' THEN ${MAX_TARGET.days} ELSE ${MAX_TARGET.hours} END)
);
CREATE INDEX sample_status_events_step_idx ON sample_status_events (to_status, created_at) INCLUDE (sample_id, from_status);
CREATE INDEX sample_status_events_sample_step_idx ON sample_status_events (sample_id, to_status) INCLUDE (from_status, created_at);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX sample_status_events_sample_step_idx;
DROP INDEX sample_status_events_step_idx;
DROP TABLE turnaround_targets;
`);
};

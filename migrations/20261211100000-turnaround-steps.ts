/**
 * Each sample's turnaround steps in one narrow row (issue 30, part 4's speed; docs/turnaround.md):
 * `sample_turnaround` holds, per sample, its account, the turnaround tests it carries, whether it is
 * open (received, not yet resulted or rejected: domain's OPEN_SAMPLE_STATUSES, or In Storage from
 * one of them) and the time of each step (the first status event of the lifecycle's transition into
 * it, domain's stepEvent), with its latest event's time. The dashboard's figures are then range
 * scans of one step's index and a sort, where they probed every sample's events (seconds at a
 * million samples).
 *
 * Kept by statement-level triggers, whatever writes the rows (a command, the import's bulk insert,
 * a fixture): a sample's insert adds its row, an update of samples refreshes its account and
 * openness, any change to its status events recomputes its steps from all its events, any change to
 * its tests recomputes its test names. A trigger per statement sees every row the statement changed
 * (transition tables), so a 10,000-row import refreshes 10,000 samples in one statement.
 */
import { OPEN_SAMPLE_STATUSES, SampleStatus, stepEvent, TURNAROUND_TESTS, type TurnaroundStep } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { literal, oneOf } from '../db/src/sql';

const STEPS: TurnaroundStep[] = ['shipped', 'received', 'resulted', 'released', 'rejected'];

/** `e` is the status event of `step`. */
function isStep(step: TurnaroundStep): string {
  const { to, from } = stepEvent(step);
  return `e.to_status = ${literal(to)} AND ${oneOf('e.from_status', from)}`;
}

/** Sample `s` is open. */
const IS_OPEN = `(${oneOf('s.status', OPEN_SAMPLE_STATUSES)} OR (s.status = ${literal(SampleStatus.InStorage)} AND coalesce(${oneOf('s.status_before_storage', OPEN_SAMPLE_STATUSES)}, false)))`;

/** The steps of the samples `ids` from all their events, as columns of `e`. */
const STEPS_OF = (ids: string) => `
  SELECT s.id AS sample_id, ${STEPS.map((step) => `min(e.created_at) FILTER (WHERE ${isStep(step)}) AS ${step}_at`).join(', ')}, max(e.created_at) AS last_event_at
    FROM unnest(${ids}) s(id) LEFT JOIN sample_status_events e ON e.sample_id = s.id
   GROUP BY s.id`;

const COLUMNS = [...STEPS.map((step) => `${step}_at`), 'last_event_at'];

/** The turnaround tests of the samples `ids` (sorted, once each; none: an empty array). */
const TESTS_OF = (ids: string) => `
  SELECT s.id AS sample_id, coalesce(array_agg(DISTINCT t.name ORDER BY t.name) FILTER (WHERE t.name IS NOT NULL), '{}') AS test_names
    FROM unnest(${ids}) s(id) LEFT JOIN tests t ON t.sample_id = s.id AND ${oneOf('t.name', TURNAROUND_TESTS)}
   GROUP BY s.id`;

/**
 * The tables whose writes change a sample's row: for each, a function and its three statement
 * triggers calling `refresh` with the samples of the rows inserted, deleted, or updated where
 * `changed` (over the new row n and the old o: a test's status changes often, its name or sample
 * almost never, and only those refresh).
 */
const KEPT_FROM = [
  { table: 'sample_status_events', refresh: 'sample_turnaround_refresh_steps', changed: '(n.sample_id, n.from_status, n.to_status, n.created_at) IS DISTINCT FROM (o.sample_id, o.from_status, o.to_status, o.created_at)' },
  { table: 'tests', refresh: 'sample_turnaround_refresh_tests', changed: '(n.sample_id, n.name) IS DISTINCT FROM (o.sample_id, o.name)' },
];

const keptFrom = ({ table, refresh, changed }: (typeof KEPT_FROM)[number]) => `
CREATE FUNCTION ${table}_turnaround_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ${refresh}(ARRAY(SELECT DISTINCT sample_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ${refresh}(ARRAY(SELECT DISTINCT sample_id FROM old_rows));
  ELSE
    PERFORM ${refresh}(ARRAY(SELECT DISTINCT v.sample_id FROM new_rows n JOIN old_rows o ON o.id = n.id
                                CROSS JOIN LATERAL (VALUES (n.sample_id), (o.sample_id)) v(sample_id) WHERE ${changed}));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ${table}_turnaround_added AFTER INSERT ON ${table}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_turnaround_changed();
CREATE TRIGGER ${table}_turnaround_changed AFTER UPDATE ON ${table}
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_turnaround_changed();
CREATE TRIGGER ${table}_turnaround_removed AFTER DELETE ON ${table}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_turnaround_changed();`;

const dropKeptFrom = ({ table }: (typeof KEPT_FROM)[number]) => `
DROP TRIGGER ${table}_turnaround_removed ON ${table};
DROP TRIGGER ${table}_turnaround_changed ON ${table};
DROP TRIGGER ${table}_turnaround_added ON ${table};
DROP FUNCTION ${table}_turnaround_changed();`;

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE sample_turnaround (
  sample_id bigint PRIMARY KEY REFERENCES samples (id) ON DELETE CASCADE,
  account_id bigint,
  test_names text[] NOT NULL DEFAULT '{}',
  open boolean NOT NULL DEFAULT false,
  ${COLUMNS.map((c) => `${c} timestamptz`).join(',\n  ')}
);

CREATE FUNCTION sample_turnaround_refresh_steps(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE sample_turnaround st SET ${COLUMNS.map((c) => `${c} = x.${c}`).join(', ')}
    FROM (${STEPS_OF('ids')}) x
   WHERE st.sample_id = x.sample_id
     AND (${COLUMNS.map((c) => `st.${c}`).join(', ')}) IS DISTINCT FROM (${COLUMNS.map((c) => `x.${c}`).join(', ')});
$$;

CREATE FUNCTION sample_turnaround_refresh_tests(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE sample_turnaround st SET test_names = x.test_names
    FROM (${TESTS_OF('ids')}) x
   WHERE st.sample_id = x.sample_id AND st.test_names IS DISTINCT FROM x.test_names;
$$;

CREATE FUNCTION sample_turnaround_samples_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sample_turnaround (sample_id, account_id, open) SELECT s.id, s.account_id, ${IS_OPEN} FROM new_rows s;
  RETURN NULL;
END $$;
CREATE TRIGGER samples_turnaround_added AFTER INSERT ON samples
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sample_turnaround_samples_added();

CREATE FUNCTION sample_turnaround_samples_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sample_turnaround st SET account_id = s.account_id, open = ${IS_OPEN}
    FROM new_rows s
   WHERE st.sample_id = s.id AND (st.account_id IS DISTINCT FROM s.account_id OR st.open <> ${IS_OPEN});
  RETURN NULL;
END $$;
CREATE TRIGGER samples_turnaround_changed AFTER UPDATE ON samples
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sample_turnaround_samples_changed();

${KEPT_FROM.map(keptFrom).join('\n')}

INSERT INTO sample_turnaround (sample_id, account_id, open) SELECT s.id, s.account_id, ${IS_OPEN} FROM samples s;
SELECT sample_turnaround_refresh_steps(ARRAY(SELECT sample_id FROM sample_turnaround));
SELECT sample_turnaround_refresh_tests(ARRAY(SELECT sample_id FROM sample_turnaround));

-- The lab's figures: the samples resulted (released, received, rejected) in a range, index only.
CREATE INDEX sample_turnaround_resulted_idx ON sample_turnaround (resulted_at) INCLUDE (received_at, test_names) WHERE resulted_at IS NOT NULL;
CREATE INDEX sample_turnaround_released_idx ON sample_turnaround (released_at) INCLUDE (received_at, test_names) WHERE released_at IS NOT NULL;
CREATE INDEX sample_turnaround_received_idx ON sample_turnaround (received_at) WHERE received_at IS NOT NULL;
CREATE INDEX sample_turnaround_rejected_idx ON sample_turnaround (rejected_at) WHERE rejected_at IS NOT NULL;
-- The open samples by receipt (the lab's overdue counts and worklist, oldest first).
CREATE INDEX sample_turnaround_open_idx ON sample_turnaround (received_at) INCLUDE (test_names) WHERE open AND received_at IS NOT NULL;
-- A clinic's own samples.
CREATE INDEX sample_turnaround_account_idx ON sample_turnaround (account_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
${KEPT_FROM.map(dropKeptFrom).join('\n')}
DROP TRIGGER samples_turnaround_changed ON samples;
DROP FUNCTION sample_turnaround_samples_changed();
DROP TRIGGER samples_turnaround_added ON samples;
DROP FUNCTION sample_turnaround_samples_added();
DROP FUNCTION sample_turnaround_refresh_tests(bigint[]);
DROP FUNCTION sample_turnaround_refresh_steps(bigint[]);
DROP TABLE sample_turnaround;
`);
};

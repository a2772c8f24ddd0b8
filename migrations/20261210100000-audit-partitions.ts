/**
 * The audit table partitioned by month (issue 32, "a year of audit rows"): `audit_events` becomes a
 * table partitioned by RANGE (at), one partition per calendar month in UTC (`audit_events_YYYY_MM`)
 * and a DEFAULT partition (`audit_events_default`) so that an insert never fails for want of its
 * month. Existing rows are copied over with their ids and chain columns unchanged.
 *
 * - A partitioned table's primary key must hold the partition key: it is now (id, at). Ids still
 *   come from the same sequence (audit_events_id_seq) and nothing references an audit row by a
 *   foreign key; the product finds a row by id alone, which the key's first column serves.
 * - chain_seq cannot stay UNIQUE for the same reason: its index is plain, the one sealer at a time
 *   (an advisory lock) hands out each position once, and the verifier names a position written
 *   twice (server/src/audit-trail/chain.ts).
 * - The append-only trigger stays on the parent (PostgreSQL clones a row trigger onto every
 *   partition, present and future); a statement trigger (TRUNCATE) is not cloned, so each partition
 *   gets its own from audit_events_create_months, the one place partitions are made.
 * - audit_archives records each month archived by `npm run audit:archive` (its file, its rows and
 *   where its rows sat in the hash chain); append-only like the trail itself.
 */
import { AUDIT_MONTHS_AHEAD } from '@platform/domain';
import type { Migration } from '../db/src/migrator';

/** The indexes a reader uses (the same names as before), on the partitioned table. */
const PARTITIONED_INDEXES = `
CREATE INDEX audit_events_entity_idx ON audit_events (entity_kind, entity_id);
CREATE INDEX audit_events_at_idx ON audit_events (at);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_user_id, at);
CREATE INDEX audit_events_chain_seq_idx ON audit_events (chain_seq, id);
CREATE INDEX audit_events_unsealed_idx ON audit_events (id) WHERE chain_seq IS NULL;`;

const TRIGGERS = `
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();`;

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE audit_events RENAME TO audit_events_unpartitioned;
ALTER TABLE audit_events_unpartitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_unpartitioned_pkey;
ALTER INDEX audit_events_entity_idx RENAME TO audit_events_unpartitioned_entity_idx;
ALTER INDEX audit_events_at_idx RENAME TO audit_events_unpartitioned_at_idx;
ALTER INDEX audit_events_actor_idx RENAME TO audit_events_unpartitioned_actor_idx;
ALTER INDEX audit_events_chain_seq_key RENAME TO audit_events_unpartitioned_chain_seq_key;
ALTER INDEX audit_events_unsealed_idx RENAME TO audit_events_unpartitioned_unsealed_idx;
ALTER SEQUENCE audit_events_id_seq OWNED BY NONE;

CREATE TABLE audit_events (LIKE audit_events_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (at);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id, at);
ALTER SEQUENCE audit_events_id_seq OWNED BY audit_events.id;
${PARTITIONED_INDEXES}
${TRIGGERS}

CREATE TABLE audit_archives (
  id bigserial PRIMARY KEY,
  -- The month archived (its first day; the month is a calendar month in UTC).
  month date NOT NULL CONSTRAINT audit_archives_month_key UNIQUE CONSTRAINT audit_archives_month_check CHECK (extract(day FROM month) = 1),
  file_name text NOT NULL,
  file_sha256 text NOT NULL,
  file_bytes bigint NOT NULL,
  row_count bigint NOT NULL,
  first_id bigint,
  last_id bigint,
  -- The month's first and last rows in chain order: their positions and hashes.
  first_chain_seq bigint,
  last_chain_seq bigint,
  first_hash text,
  last_hash text,
  -- Each stretch of consecutive chain positions the month held: [{first, last, prevHash, lastHash}]
  -- (one stretch, but for rows committed across the month's turn), so the verifier can step over it.
  chain_runs jsonb NOT NULL DEFAULT '[]'::jsonb,
  archived_at timestamptz NOT NULL DEFAULT now(),
  archived_by text NOT NULL DEFAULT current_user
);
CREATE FUNCTION audit_archives_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_archives is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_archives_no_update_delete BEFORE UPDATE OR DELETE ON audit_archives
  FOR EACH ROW EXECUTE FUNCTION audit_archives_append_only();
CREATE TRIGGER audit_archives_no_truncate BEFORE TRUNCATE ON audit_archives
  FOR EACH STATEMENT EXECUTE FUNCTION audit_archives_append_only();

-- Every month from first_month to last_month (inclusive) gets its partition unless it has one or
-- was archived (a row of an archived month goes to the default partition). One caller at a time.
-- Fails, naming the default partition, when that partition already holds rows of a month to make.
CREATE FUNCTION audit_events_create_months(first_month date, last_month date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', first_month)::date;
  part text;
  made integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_events_create_months'));
  WHILE m <= last_month LOOP
    part := 'audit_events_' || to_char(m, 'YYYY_MM');
    IF to_regclass(part) IS NULL AND NOT EXISTS (SELECT 1 FROM audit_archives a WHERE a.month = m) THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF audit_events FOR VALUES FROM (%L) TO (%L)', part,
        m::timestamp AT TIME ZONE 'UTC', (m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
      EXECUTE format('CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()', part);
      made := made + 1;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  RETURN made;
END;
$$;

CREATE TABLE audit_events_default PARTITION OF audit_events DEFAULT;
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events_default
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
-- The months the rows already written fall in, through the current month and ${AUDIT_MONTHS_AHEAD} more.
SELECT audit_events_create_months(
  (LEAST(coalesce((SELECT min(at) FROM audit_events_unpartitioned), now()), now()) AT TIME ZONE 'UTC')::date,
  ((now() AT TIME ZONE 'UTC') + interval '${AUDIT_MONTHS_AHEAD} months')::date);

INSERT INTO audit_events SELECT * FROM audit_events_unpartitioned;
DROP TABLE audit_events_unpartitioned;
ANALYZE audit_events;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  // The rows still in the table go back into one table (months archived stay in their files).
  await sequelize.query(`
CREATE TABLE audit_events_unpartitioned (LIKE audit_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
INSERT INTO audit_events_unpartitioned SELECT * FROM audit_events;
ALTER SEQUENCE audit_events_id_seq OWNED BY NONE;
DROP TABLE audit_events;
DROP FUNCTION audit_events_create_months(date, date);
DROP TABLE audit_archives;
DROP FUNCTION audit_archives_append_only();
ALTER TABLE audit_events_unpartitioned RENAME TO audit_events;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);
ALTER SEQUENCE audit_events_id_seq OWNED BY audit_events.id;
CREATE INDEX audit_events_entity_idx ON audit_events (entity_kind, entity_id);
CREATE INDEX audit_events_at_idx ON audit_events (at);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_user_id, at);
CREATE UNIQUE INDEX audit_events_chain_seq_key ON audit_events (chain_seq);
CREATE INDEX audit_events_unsealed_idx ON audit_events (id) WHERE chain_seq IS NULL;
${TRIGGERS}
`);
};

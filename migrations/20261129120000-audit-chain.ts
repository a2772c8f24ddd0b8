/**
 * The audit trail made tamper-evident (issue 29, part 3): each row gets its place in a hash chain
 * (chain_seq), the hash of the row before it (prev_hash) and its own hash (sha256 of prev_hash and
 * the row's canonical content: server/src/audit-trail/chain.ts). Rows are still inserted without
 * them (an insert takes no lock and waits for nobody); a sealer fills them in afterwards, one
 * sealer at a time, in id order. The append-only trigger lets exactly that through: one UPDATE of
 * a row whose three chain columns are NULL that sets them all and changes nothing else.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE audit_events
  ADD COLUMN chain_seq bigint,
  ADD COLUMN prev_hash text,
  ADD COLUMN hash text,
  ADD CONSTRAINT audit_events_chain_check CHECK ((chain_seq IS NULL) = (hash IS NULL) AND (hash IS NULL) = (prev_hash IS NULL));
CREATE UNIQUE INDEX audit_events_chain_seq_key ON audit_events (chain_seq);
CREATE INDEX audit_events_unsealed_idx ON audit_events (id) WHERE chain_seq IS NULL;

CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The sealer's one update: the chain columns, unset until now, all set; every other column unchanged.
  IF TG_OP = 'UPDATE'
     AND OLD.chain_seq IS NULL AND OLD.prev_hash IS NULL AND OLD.hash IS NULL
     AND NEW.chain_seq IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
     AND (to_jsonb(NEW) - 'chain_seq' - 'prev_hash' - 'hash') = (to_jsonb(OLD) - 'chain_seq' - 'prev_hash' - 'hash') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
DROP INDEX audit_events_unsealed_idx;
DROP INDEX audit_events_chain_seq_key;
ALTER TABLE audit_events DROP CONSTRAINT audit_events_chain_check, DROP COLUMN hash, DROP COLUMN prev_hash, DROP COLUMN chain_seq;
`);
};

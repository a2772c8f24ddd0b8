/**
 * Electronic signatures (issue 29, part 2; 21 CFR 11.50, 11.70): one row per act of signing (who,
 * their name as printed, when, what it means, the correction's reason, how they proved who they
 * are) and one row per result version it signed, with that version's content hash (SHA-256 of
 * domain's signedResultText). Nothing changes or deletes either: triggers refuse UPDATE, DELETE and
 * TRUNCATE, so a signature cannot be excised, copied to another record or altered.
 */
import { SIGNATURE_MEANINGS, SIGNATURE_METHODS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE signatures (
  id bigserial PRIMARY KEY,
  signer_user_id bigint NOT NULL REFERENCES users (id),
  printed_name text NOT NULL CONSTRAINT signatures_printed_name_check CHECK (btrim(printed_name) <> ''),
  meaning text NOT NULL CONSTRAINT signatures_meaning_check CHECK (${oneOf('meaning', SIGNATURE_MEANINGS)}),
  reason text,
  method text NOT NULL CONSTRAINT signatures_method_check CHECK (${oneOf('method', SIGNATURE_METHODS)}),
  signed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signatures_signer_idx ON signatures (signer_user_id, signed_at);
CREATE TABLE signed_results (
  signature_id bigint NOT NULL REFERENCES signatures (id),
  test_result_id bigint NOT NULL REFERENCES test_results (id),
  content_sha256 text NOT NULL CONSTRAINT signed_results_content_sha256_check CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (signature_id, test_result_id)
);
CREATE INDEX signed_results_result_idx ON signed_results (test_result_id);

CREATE FUNCTION signatures_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is a record of electronic signatures: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER signatures_no_update_delete BEFORE UPDATE OR DELETE ON signatures FOR EACH ROW EXECUTE FUNCTION signatures_unchangeable();
CREATE TRIGGER signatures_no_truncate BEFORE TRUNCATE ON signatures FOR EACH STATEMENT EXECUTE FUNCTION signatures_unchangeable();
CREATE TRIGGER signed_results_no_update_delete BEFORE UPDATE OR DELETE ON signed_results FOR EACH ROW EXECUTE FUNCTION signatures_unchangeable();
CREATE TRIGGER signed_results_no_truncate BEFORE TRUNCATE ON signed_results FOR EACH STATEMENT EXECUTE FUNCTION signatures_unchangeable();`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE signed_results;
DROP TABLE signatures;
DROP FUNCTION signatures_unchangeable();`);
};

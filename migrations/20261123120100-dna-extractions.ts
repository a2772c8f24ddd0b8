/**
 * DNA extractions imported from an extraction run: one row per extraction of a sample, with its
 * measurements, where it sits (plate, well), the DNA Extraction result version it wrote (In
 * Review until a second lab user releases it), the flags of the acceptance range and, for a
 * flagged one, the lab's decision: re-extraction (the `<sampleId>.reex` id, once per sample) or
 * rejection of the sample.
 */
import { EXTRACTION_OUTCOMES, PCR_WELL_SQL_PATTERN } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE dna_extractions (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  -- As the file named the sample: its id, or its id + .reex for a re-extraction.
  label text NOT NULL CONSTRAINT dna_extractions_label_check CHECK (label <> '' AND btrim(label) = label),
  test_result_id bigint NOT NULL CONSTRAINT dna_extractions_test_result_id_key UNIQUE REFERENCES test_results (id),
  import_job_id bigint NOT NULL REFERENCES jobs (id),
  file_row integer NOT NULL CONSTRAINT dna_extractions_file_row_check CHECK (file_row >= 1),
  concentration_ng_per_ul numeric NOT NULL CONSTRAINT dna_extractions_concentration_check CHECK (concentration_ng_per_ul >= 0),
  a260_280 numeric NOT NULL CONSTRAINT dna_extractions_a260_280_check CHECK (a260_280 > 0),
  volume_ul numeric NOT NULL CONSTRAINT dna_extractions_volume_check CHECK (volume_ul >= 0),
  plate text NOT NULL CONSTRAINT dna_extractions_plate_check CHECK (plate <> '' AND btrim(plate) = plate),
  well text NOT NULL CONSTRAINT dna_extractions_well_check CHECK (well ~ ${literal(PCR_WELL_SQL_PATTERN)}),
  -- Why the extraction is outside the acceptance range (one sentence per measure); empty when it is within.
  flags jsonb NOT NULL DEFAULT '[]'::jsonb CONSTRAINT dna_extractions_flags_check CHECK (jsonb_typeof(flags) = 'array'),
  outcome text CONSTRAINT dna_extractions_outcome_check CHECK (${oneOf('outcome', EXTRACTION_OUTCOMES)}),
  reextraction_id text CONSTRAINT dna_extractions_reextraction_id_key UNIQUE,
  decided_by_user_id bigint REFERENCES users (id),
  decided_at timestamptz,
  ${TIMESTAMPS},
  -- Only a flagged extraction is decided, once, by someone, at a time.
  CONSTRAINT dna_extractions_outcome_flagged_check CHECK (outcome IS NULL OR jsonb_array_length(flags) > 0),
  CONSTRAINT dna_extractions_decided_check CHECK ((outcome IS NULL) = (decided_by_user_id IS NULL) AND (outcome IS NULL) = (decided_at IS NULL)),
  -- A re-extraction names its .reex id; nothing else does.
  CONSTRAINT dna_extractions_reextraction_check CHECK (
    (outcome IS NOT DISTINCT FROM ${literal('re-extraction')}) = (reextraction_id IS NOT NULL)
    AND (reextraction_id IS NULL OR reextraction_id LIKE '%.reex')
  )
);
CREATE INDEX dna_extractions_sample_id_idx ON dna_extractions (sample_id);
CREATE INDEX dna_extractions_import_job_id_idx ON dna_extractions (import_job_id, file_row);
-- The flagged extractions still waiting for a decision (the review page lists them).
CREATE INDEX dna_extractions_awaiting_idx ON dna_extractions (id) WHERE outcome IS NULL AND flags <> '[]'::jsonb;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE dna_extractions;');
};

/**
 * Storage plates of the Lab Toolbox: a plate (its name is its barcode) and what its 96 wells hold.
 * A well row is kept when the well is emptied (who, when, why): the sample's storage history. The
 * two partial unique indexes are the rules "a well holds one thing" and "a sample is in one
 * place" (and its re-extraction in one place), so two requests at the same moment cannot both win.
 */
import { PCR_WELL_SQL_PATTERN, SAMPLE_CONTENT_KINDS, STORAGE_CONTENT_KINDS, STORAGE_REMOVALS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE storage_plates (
  id bigserial PRIMARY KEY,
  name text NOT NULL CONSTRAINT storage_plates_name_key UNIQUE
    CONSTRAINT storage_plates_name_check CHECK (name <> '' AND name = btrim(name)),
  created_by_user_id bigint NOT NULL REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX storage_plates_created_at_idx ON storage_plates (created_at DESC, id DESC);

CREATE TABLE storage_plate_wells (
  id bigserial PRIMARY KEY,
  plate_id bigint NOT NULL REFERENCES storage_plates (id),
  well text NOT NULL CONSTRAINT storage_plate_wells_well_check CHECK (well ~ ${literal(PCR_WELL_SQL_PATTERN)}),
  label text NOT NULL CONSTRAINT storage_plate_wells_label_check CHECK (label <> '' AND label = btrim(label)),
  content_kind text NOT NULL CONSTRAINT storage_plate_wells_content_kind_check CHECK (${oneOf('content_kind', STORAGE_CONTENT_KINDS)}),
  sample_id bigint REFERENCES samples (id),
  placed_by_user_id bigint NOT NULL REFERENCES users (id),
  removed_at timestamptz,
  removed_by_user_id bigint REFERENCES users (id),
  removal text CONSTRAINT storage_plate_wells_removal_check CHECK (${oneOf('removal', STORAGE_REMOVALS)}),
  ${TIMESTAMPS},
  -- A sample or its re-extraction names the sample; a control names none.
  CONSTRAINT storage_plate_wells_sample_check CHECK ((${oneOf('content_kind', SAMPLE_CONTENT_KINDS)}) = (sample_id IS NOT NULL)),
  -- An emptied well says when, by whom and why.
  CONSTRAINT storage_plate_wells_removed_check CHECK (
    (removed_at IS NULL) = (removed_by_user_id IS NULL) AND (removed_at IS NULL) = (removal IS NULL)
  )
);
CREATE UNIQUE INDEX storage_plate_wells_occupied_key ON storage_plate_wells (plate_id, well) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX storage_plate_wells_sample_key ON storage_plate_wells (sample_id, content_kind) WHERE sample_id IS NOT NULL AND removed_at IS NULL;
CREATE INDEX storage_plate_wells_sample_id_idx ON storage_plate_wells (sample_id, created_at DESC);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE storage_plate_wells;
DROP TABLE storage_plates;
`);
};

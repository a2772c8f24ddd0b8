/** PCR plates of the Lab Toolbox: a plate (a run of the PCR instrument) and what each of its 96 wells holds. */
import { COVID_PCR_RESULTS, PCR_CONTROL_KINDS, PCR_PLATE_STATUSES, PCR_WELL_SQL_PATTERN, PcrPlateStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE pcr_plates (
  id bigserial PRIMARY KEY,
  name text NOT NULL CONSTRAINT pcr_plates_name_key UNIQUE
    CONSTRAINT pcr_plates_name_check CHECK (btrim(name) <> ''),
  status text NOT NULL DEFAULT ${literal(PcrPlateStatus.Registered)}
    CONSTRAINT pcr_plates_status_check CHECK (${oneOf('status', PCR_PLATE_STATUSES)}),
  created_by_user_id bigint NOT NULL REFERENCES users (id),
  resulted_by_user_id bigint REFERENCES users (id),
  resulted_at timestamptz,
  ${TIMESTAMPS},
  -- A resulted plate says who entered its results and when.
  CONSTRAINT pcr_plates_resulted_check CHECK (
    (status = ${literal(PcrPlateStatus.Resulted)}) = (resulted_by_user_id IS NOT NULL AND resulted_at IS NOT NULL)
  )
);
CREATE INDEX pcr_plates_status_created_at_idx ON pcr_plates (status, created_at DESC);

-- A well holds either a sample (with the test it is run for) or a control; its result once the run is read.
CREATE TABLE pcr_plate_wells (
  id bigserial PRIMARY KEY,
  plate_id bigint NOT NULL REFERENCES pcr_plates (id),
  well text NOT NULL CONSTRAINT pcr_plate_wells_well_check CHECK (well ~ ${literal(PCR_WELL_SQL_PATTERN)}),
  label text NOT NULL,
  sample_id bigint REFERENCES samples (id),
  test_id bigint REFERENCES tests (id),
  control_kind text CONSTRAINT pcr_plate_wells_control_kind_check CHECK (${oneOf('control_kind', PCR_CONTROL_KINDS)}),
  result text CONSTRAINT pcr_plate_wells_result_check CHECK (${oneOf('result', COVID_PCR_RESULTS)}),
  test_result_id bigint CONSTRAINT pcr_plate_wells_test_result_id_key UNIQUE REFERENCES test_results (id),
  ${TIMESTAMPS},
  CONSTRAINT pcr_plate_wells_plate_id_well_key UNIQUE (plate_id, well),
  CONSTRAINT pcr_plate_wells_content_check CHECK (
    (sample_id IS NOT NULL AND test_id IS NOT NULL AND control_kind IS NULL)
    OR (sample_id IS NULL AND test_id IS NULL AND control_kind IS NOT NULL)
  ),
  CONSTRAINT pcr_plate_wells_test_result_check CHECK (test_result_id IS NULL OR sample_id IS NOT NULL)
);
CREATE UNIQUE INDEX pcr_plate_wells_plate_id_sample_id_key ON pcr_plate_wells (plate_id, sample_id) WHERE sample_id IS NOT NULL;
CREATE INDEX pcr_plate_wells_sample_id_idx ON pcr_plate_wells (sample_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE pcr_plate_wells;
DROP TABLE pcr_plates;
`);
};

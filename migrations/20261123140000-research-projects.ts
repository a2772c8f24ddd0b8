/**
 * Research: participants known by a study id (a patient row with study_id and no name or date of
 * birth), research projects of an account (protocol, consent document, the tests it uses, the
 * questionnaire of its study responses), and study responses rebuilt as one per participant per
 * project (the earlier per-sample table was never written to); a Research Portal order names its project.
 */
import { PATIENT_SEXES, STUDY_ID_SQL_PATTERN, TEST_NAMES } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

/** The questionnaires kept in code then (their ids); 20261209100000-research-studies made them data. */
const STUDY_QUESTIONNAIRE_IDS = ['prostox-research'];

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE patients
  ADD COLUMN study_id text CONSTRAINT patients_study_id_check CHECK (study_id ~ ${literal(STUDY_ID_SQL_PATTERN)}),
  ALTER COLUMN first_name DROP NOT NULL,
  ALTER COLUMN last_name DROP NOT NULL,
  ALTER COLUMN date_of_birth DROP NOT NULL,
  -- A patient has a name and a date of birth; a research participant has a study id in an account instead.
  ADD CONSTRAINT patients_identity_check CHECK (
    (study_id IS NOT NULL AND account_id IS NOT NULL)
    OR (first_name IS NOT NULL AND last_name IS NOT NULL AND date_of_birth IS NOT NULL)
  ),
  ADD CONSTRAINT patients_participant_sex_check CHECK (study_id IS NULL OR sex IS NULL OR ${oneOf('sex', PATIENT_SEXES)});
CREATE UNIQUE INDEX patients_account_id_study_id_key ON patients (account_id, study_id) WHERE study_id IS NOT NULL;

CREATE TABLE research_projects (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  name text NOT NULL CONSTRAINT research_projects_name_check CHECK (btrim(name) <> '' AND btrim(name) = name),
  -- Where the protocol and the consent document are (a path of the SPA's documents or a URL).
  protocol text,
  consent_document text,
  tests text[] NOT NULL CONSTRAINT research_projects_tests_check
    CHECK (cardinality(tests) >= 1 AND tests <@ ARRAY[${TEST_NAMES.map(literal).join(', ')}]::text[]),
  questionnaire text NOT NULL CONSTRAINT research_projects_questionnaire_check CHECK (${oneOf('questionnaire', STUDY_QUESTIONNAIRE_IDS)}),
  ${TIMESTAMPS}
);
CREATE UNIQUE INDEX research_projects_account_id_name_key ON research_projects (account_id, lower(name));

-- The project a Research Portal order is for.
ALTER TABLE orders ADD COLUMN research_project_id bigint REFERENCES research_projects (id);
CREATE INDEX orders_research_project_id_idx ON orders (research_project_id) WHERE research_project_id IS NOT NULL;

DROP TABLE study_responses;
CREATE TABLE study_responses (
  id bigserial PRIMARY KEY,
  research_project_id bigint NOT NULL REFERENCES research_projects (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  answers jsonb NOT NULL DEFAULT '{}'::jsonb CONSTRAINT study_responses_answers_check CHECK (jsonb_typeof(answers) = 'object'),
  -- Every required answer of the project's questionnaire is in (set by the application on each write).
  complete boolean NOT NULL DEFAULT false,
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT study_responses_research_project_id_patient_id_key UNIQUE (research_project_id, patient_id)
);
CREATE INDEX study_responses_patient_id_idx ON study_responses (patient_id);
CREATE INDEX study_responses_incomplete_idx ON study_responses (research_project_id) WHERE NOT complete;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE study_responses;
CREATE TABLE study_responses (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  study text NOT NULL,
  answers jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT study_responses_sample_id_study_key UNIQUE (sample_id, study)
);
CREATE INDEX study_responses_patient_id_idx ON study_responses (patient_id);
ALTER TABLE orders DROP COLUMN research_project_id;
DROP TABLE research_projects;
DROP INDEX patients_account_id_study_id_key;
ALTER TABLE patients
  DROP CONSTRAINT patients_participant_sex_check,
  DROP CONSTRAINT patients_identity_check,
  DROP COLUMN study_id,
  ALTER COLUMN first_name SET NOT NULL,
  ALTER COLUMN last_name SET NOT NULL,
  ALTER COLUMN date_of_birth SET NOT NULL;
`);
};

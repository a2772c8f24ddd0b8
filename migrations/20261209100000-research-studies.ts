/**
 * Research studies the lab sets up itself (issue 31, item 3): a project is run by several accounts
 * (research_project_accounts instead of one account_id), may be closed (no new orders, its data
 * kept), and its questionnaire is data in versions (questionnaire_versions: a draft the admin's
 * builder changes, then published versions that never change, a trigger keeping them so). A study
 * response keeps the version it was given under. The CHECK that tied every project to the one
 * questionnaire in code goes: the questionnaire it named is written here as each existing project's
 * first version, published when the project was created, and every existing response answers it.
 */
import { PROSTOX_RESEARCH_QUESTIONNAIRE } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE research_project_accounts (
  research_project_id bigint NOT NULL REFERENCES research_projects (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (research_project_id, account_id)
);
CREATE INDEX research_project_accounts_account_id_idx ON research_project_accounts (account_id);
INSERT INTO research_project_accounts (research_project_id, account_id, created_at) SELECT id, account_id, created_at FROM research_projects;

CREATE TABLE questionnaire_versions (
  id bigserial PRIMARY KEY,
  research_project_id bigint NOT NULL REFERENCES research_projects (id),
  version integer NOT NULL CONSTRAINT questionnaire_versions_version_check CHECK (version >= 1),
  -- The definition the domain's describeDefinitionProblems accepted (title, questions).
  definition jsonb NOT NULL CONSTRAINT questionnaire_versions_definition_check
    CHECK (jsonb_typeof(definition) = 'object' AND jsonb_typeof(definition -> 'questions') = 'array'),
  -- Null while a draft; a published version never changes (trigger below).
  published_at timestamptz,
  published_by_user_id bigint REFERENCES users (id),
  created_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT questionnaire_versions_research_project_id_version_key UNIQUE (research_project_id, version),
  CONSTRAINT questionnaire_versions_id_research_project_id_key UNIQUE (id, research_project_id)
);
-- One draft at a time per project.
CREATE UNIQUE INDEX questionnaire_versions_draft_key ON questionnaire_versions (research_project_id) WHERE published_at IS NULL;

CREATE FUNCTION questionnaire_versions_published_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.published_at IS NOT NULL THEN
    RAISE EXCEPTION 'questionnaire version % is published: it never changes', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER questionnaire_versions_published_unchanged BEFORE UPDATE OR DELETE ON questionnaire_versions
  FOR EACH ROW EXECUTE FUNCTION questionnaire_versions_published_unchanged();

INSERT INTO questionnaire_versions (research_project_id, version, definition, published_at, created_at, updated_at)
  SELECT id, 1, ${literal(JSON.stringify(PROSTOX_RESEARCH_QUESTIONNAIRE))}::jsonb, created_at, created_at, created_at FROM research_projects;

ALTER TABLE study_responses ADD COLUMN questionnaire_version_id bigint;
UPDATE study_responses r SET questionnaire_version_id = v.id
  FROM questionnaire_versions v WHERE v.research_project_id = r.research_project_id AND v.version = 1;
ALTER TABLE study_responses
  ALTER COLUMN questionnaire_version_id SET NOT NULL,
  -- The version is one of the response's project.
  ADD CONSTRAINT study_responses_questionnaire_version_fkey FOREIGN KEY (questionnaire_version_id, research_project_id)
    REFERENCES questionnaire_versions (id, research_project_id);
CREATE INDEX study_responses_questionnaire_version_id_idx ON study_responses (questionnaire_version_id);

DROP INDEX research_projects_account_id_name_key;
ALTER TABLE research_projects
  DROP COLUMN questionnaire,
  DROP COLUMN account_id,
  ADD COLUMN closed_at timestamptz,
  ADD COLUMN closed_by_user_id bigint REFERENCES users (id);
-- One name per project across the lab (the admin tells projects apart by name).
CREATE UNIQUE INDEX research_projects_name_key ON research_projects (lower(name));
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX research_projects_name_key;
ALTER TABLE research_projects
  DROP COLUMN closed_by_user_id,
  DROP COLUMN closed_at,
  ADD COLUMN account_id bigint REFERENCES accounts (id),
  ADD COLUMN questionnaire text NOT NULL DEFAULT 'prostox-research'
    CONSTRAINT research_projects_questionnaire_check CHECK (questionnaire IN ('prostox-research'));
ALTER TABLE research_projects ALTER COLUMN questionnaire DROP DEFAULT;
UPDATE research_projects p SET account_id = (SELECT min(a.account_id) FROM research_project_accounts a WHERE a.research_project_id = p.id);
ALTER TABLE research_projects ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX research_projects_account_id_name_key ON research_projects (account_id, lower(name));
ALTER TABLE study_responses DROP COLUMN questionnaire_version_id;
DROP TABLE questionnaire_versions;
DROP FUNCTION questionnaire_versions_published_unchanged();
DROP TABLE research_project_accounts;
`);
};

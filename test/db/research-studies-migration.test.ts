/**
 * Migration 20261209100000-research-studies on data as it was before: a project of one account tied
 * to the questionnaire in code, a participant and their study response. After it the project is run
 * by that account, its questionnaire is version 1 (the PROSTOX Research questionnaire as data,
 * published when the project was created), the response answers version 1, and that version never
 * changes again; down takes the project back to its account and questionnaire id.
 */
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase, type Db } from '@platform/db';
import { PROSTOX_RESEARCH_QUESTIONNAIRE } from '@platform/domain';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_research_studies_${process.pid}_${Date.now()}`;
const MIGRATION = '20261209100000-research-studies';

describe('db: the research-studies migration on existing data', function () {
  this.timeout(120_000);
  let db: Db;
  let migrator: ReturnType<typeof createMigrator>;

  before(async () => {
    await createDatabase(ADMIN_URL, DB_NAME);
    db = connect(databaseUrl(ADMIN_URL, DB_NAME), { poolMax: 2 });
    migrator = createMigrator(db.sequelize);
  });
  after(async () => {
    try {
      await db?.close();
    } finally {
      await dropDatabase(ADMIN_URL, DB_NAME);
    }
  });

  const one = async <T extends object = Record<string, unknown>>(sql: string): Promise<T> => {
    const [row] = await db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });
    if (!row) throw new Error(`no row: ${sql}`);
    return row;
  };

  it('writes the code questionnaire as version 1 of the existing project and ties its responses to it', async () => {
    const pending = (await migrator.pending()).map((m) => m.name);
    const before = pending[pending.indexOf(MIGRATION) - 1];
    await migrator.up({ to: before });
    const { id: accountId } = await one<{ id: number }>("INSERT INTO accounts (name, type, clinic_access, research_access, is_active) VALUES ('Old Research', 'PROSTOX Research Partner', false, true, true) RETURNING id");
    const { id: projectId } = await one<{ id: number }>(
      `INSERT INTO research_projects (account_id, name, tests, questionnaire, created_at, updated_at)
       VALUES (${accountId}, 'Old study', ARRAY['HEAD AND NECK'], 'prostox-research', '2026-01-05T10:00:00Z', now()) RETURNING id`,
    );
    const { id: patientId } = await one<{ id: number }>(`INSERT INTO patients (account_id, study_id, created_at, updated_at) VALUES (${accountId}, 'OLD-1', now(), now()) RETURNING id`);
    await db.sequelize.query(`INSERT INTO study_responses (research_project_id, patient_id, answers, complete) VALUES (${projectId}, ${patientId}, '{"doseGy": 50}', false)`);

    await migrator.up({ to: MIGRATION });
    const version = await one<{ id: number; version: number; definition: unknown; published_at: Date }>(`SELECT id, version, definition, published_at FROM questionnaire_versions WHERE research_project_id = ${projectId}`);
    expect(version.version).to.equal(1);
    expect(version.definition).to.deep.equal(PROSTOX_RESEARCH_QUESTIONNAIRE);
    expect(version.published_at.toISOString()).to.equal('2026-01-05T10:00:00.000Z');
    const response = await one<{ questionnaire_version_id: number; answers: unknown }>(`SELECT questionnaire_version_id, answers FROM study_responses WHERE research_project_id = ${projectId}`);
    expect(response).to.deep.equal({ questionnaire_version_id: version.id, answers: { doseGy: 50 } });
    expect(await one(`SELECT account_id FROM research_project_accounts WHERE research_project_id = ${projectId}`)).to.deep.equal({ account_id: accountId });
    let refused: unknown;
    await db.sequelize.query(`UPDATE questionnaire_versions SET definition = '{"title":"x","questions":[]}' WHERE id = ${version.id}`).catch((err: unknown) => { refused = err; });
    expect(String(refused)).to.match(/is published: it never changes/);

    await migrator.down({ step: 1 });
    expect(await one(`SELECT account_id, questionnaire FROM research_projects WHERE id = ${projectId}`)).to.deep.equal({ account_id: accountId, questionnaire: 'prostox-research' });
  });
});

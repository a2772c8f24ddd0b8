/**
 * Research studies the lab sets up itself (issue 31, item 3), on the real app: the admin creates a
 * project (accounts taking part, tests), builds its questionnaire (definitions checked, each problem
 * naming its field), publishes versions that never change, and closes it; a research provider's
 * answers are checked against the version their response was given under (a hidden conditional
 * question is never required, and an answer to it is refused); a closed project, or one with no
 * published version, refuses orders; only the admin may do any of it; every change audited.
 */
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { PROSTOX_RESEARCH_QUESTIONNAIRE, SampleType, TestName, type QuestionnaireDefinition } from '@platform/domain';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { createResearchSite, RESEARCH_ATTESTED, uniqueStudyId, type TestResearchSite } from '../support/fixtures/research';

/** A questionnaire with a conditional question: the details are asked (and required) only when toxicity was Yes. */
const TOXICITY_STUDY: QuestionnaireDefinition = {
  title: 'Toxicity follow-up',
  questions: [
    { key: 'hadToxicity', label: 'Any toxicity', kind: 'yesNoOther', required: true, section: 'Follow-up' },
    { key: 'toxicityDetail', label: 'Toxicity details', kind: 'text', maxLength: 500, required: true, section: 'Follow-up', showWhen: { question: 'hadToxicity', answers: ['Yes'] } },
    { key: 'weightKg', label: 'Weight', kind: 'number', min: 20, max: 300, unit: 'kg', integer: false, required: false, section: 'Follow-up' },
    { key: 'arm', label: 'Study arm', kind: 'choice', options: ['A', 'B'], required: true, section: 'Enrolment' },
    { key: 'visitDate', label: 'Visit date', kind: 'date', required: false, section: 'Enrolment' },
  ],
};

describe('research studies the lab sets up', function () {
  this.timeout(60_000);
  let t: TestApp;
  let admin: Session;
  let site: TestResearchSite;
  let serial = 0;

  before(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app, 'admin', 'admin', '10.83.0.1');
    site = await createResearchSite(t.ctx, t.app, 'Cirrus Research');
  });
  after(() => t.close());

  const projectBody = (overrides: Record<string, unknown> = {}) => ({
    name: `Toxicity study ${process.pid}-${++serial}`, protocol: '/docs/research-protocol.pdf', consentDocument: null, accountIds: [site.accountId],
    tests: [TestName.HeadAndNeck, TestName.Sarcoma], ...overrides,
  });
  const createProject = async (overrides: Record<string, unknown> = {}) => (await admin.post('/api/admin/research-projects', projectBody(overrides)).expect(201)).body;
  const saveDraft = (id: number, definition: unknown) => admin.agent.put(`/api/admin/research-projects/${id}/questionnaire/draft`).set('x-csrf-token', admin.csrf).send({ definition });
  const publish = (id: number) => admin.post(`/api/admin/research-projects/${id}/questionnaire/publish`, {});
  const publishedProject = async (definition = TOXICITY_STUDY) => {
    const project = await createProject();
    await saveDraft(project.id, definition).expect(200);
    await publish(project.id).expect(200);
    return project;
  };
  const order = (projectId: number, studyId = uniqueStudyId()) =>
    site.session.post(site.api('order'), {
      projectId, studyId, tests: [TestName.HeadAndNeck], physicianId: site.physicianId, sampleType: SampleType.Saliva, attestations: RESEARCH_ATTESTED,
    });
  const update = (responseId: number, answers: Record<string, unknown>) => site.session.post(site.api(`study-responses/${responseId}/update`), { answers });
  const auditOf = async (action: string, entityId: number) =>
    t.ctx.db.sequelize.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE action = :action AND entity_kind = 'research_project' AND entity_id = :id ORDER BY id",
      { replacements: { action, id: String(entityId) }, type: QueryTypes.SELECT },
    );

  describe('who may call it', () => {
    it('answers 401 without a session and 403 to a research provider and a lab user', async () => {
      const anonymous = await newSession(t.app, '10.83.0.2');
      await anonymous.agent.get('/api/admin/research-projects').expect(401);
      await anonymous.post('/api/admin/research-projects', projectBody()).expect(401);
      const lab = await signIn(t.app, 'lab1', 'lab', '10.83.0.3');
      for (const s of [site.session, lab]) {
        await s.agent.get('/api/admin/research-projects').expect(403);
        await s.post('/api/admin/research-projects', projectBody()).expect(403);
        await s.post('/api/admin/research-projects/1/close', {}).expect(403);
      }
    });
  });

  describe('projects', () => {
    it('creates a project with its accounts and tests, audited; the accounts taking part see it, without a questionnaire yet', async () => {
      const body = projectBody();
      const res = await admin.post('/api/admin/research-projects', body).expect(201);
      expect(res.body).to.include({ name: body.name, publishedVersion: null, hasDraft: false, closedAt: null });
      expect(res.body.accounts).to.deep.equal([{ id: site.accountId, name: site.name }]);
      const [created] = await auditOf('research_project.created', res.body.id);
      expect(created.details).to.deep.include({ old: null });
      expect(created.details.new).to.deep.include({ name: body.name, accountIds: [site.accountId], tests: body.tests });
      const listed = (await site.session.agent.get(site.api('research-projects')).expect(200)).body.find((p: { id: number }) => p.id === res.body.id);
      expect(listed).to.include({ questionnaire: null, closedAt: null });
      // No published questionnaire: no orders yet.
      const refused = await order(res.body.id).expect(409);
      expect(refused.body.error.fields[0].field).to.equal('projectId');
    });

    it('refuses an unknown account, a test no project orders and a name already taken, naming the field', async () => {
      const unknown = await admin.post('/api/admin/research-projects', projectBody({ accountIds: [site.accountId, 987654321] })).expect(400);
      expect(unknown.body.error.fields).to.deep.equal([{ field: 'accountIds.1', message: 'Account 987654321 not found' }]);
      const test = await admin.post('/api/admin/research-projects', projectBody({ tests: [TestName.CovidPcr] })).expect(400);
      expect(test.body.error.fields[0].field).to.equal('tests.0');
      const first = await createProject();
      const taken = await admin.post('/api/admin/research-projects', projectBody({ name: first.name.toUpperCase() })).expect(409);
      expect(taken.body.error.fields[0]).to.deep.equal({ field: 'name', message: `A research project named ${first.name.toUpperCase()} already exists` });
    });

    it('changes the accounts and tests, audited with the old and new values', async () => {
      const project = await createProject();
      const other = await createResearchSite(t.ctx, t.app, 'Stratus Research');
      const res = await admin.agent.put(`/api/admin/research-projects/${project.id}`).set('x-csrf-token', admin.csrf)
        .send(projectBody({ name: project.name, accountIds: [site.accountId, other.accountId], tests: [TestName.BreastTox] })).expect(200);
      expect(res.body.accounts.map((a: { id: number }) => a.id).sort()).to.deep.equal([site.accountId, other.accountId].sort());
      const [updated] = await auditOf('research_project.updated', project.id);
      expect(updated.details).to.deep.include({ old: { name: project.name, protocol: '/docs/research-protocol.pdf', consentDocument: null, tests: [TestName.HeadAndNeck, TestName.Sarcoma], accountIds: [site.accountId] } });
      expect((updated.details.new as { tests: string[] }).tests).to.deep.equal([TestName.BreastTox]);
    });
  });

  describe('questionnaire definitions', () => {
    it('refuses a definition that breaks the rules, each problem naming its field', async () => {
      const project = await createProject();
      const bad = {
        title: '',
        questions: [
          { key: 'arm', label: 'Study arm', kind: 'choice', options: ['A'], required: true, section: 'S' },
          { key: 'arm', label: 'Dose', kind: 'number', min: 10, max: 5, unit: '', integer: false, required: true, section: 'S' },
          { key: 'detail', label: 'Detail', kind: 'text', maxLength: 100, required: true, section: 'S', showWhen: { question: 'later', answers: ['Yes'] } },
          { key: 'when', label: 'When', kind: 'date', required: 'yes', section: 'S', options: ['x'] },
          { key: 'later', label: 'Later', kind: 'yesNoOther', required: true, section: 'S', showWhen: { question: 'arm', answers: ['C'] } },
        ],
      };
      const res = await saveDraft(project.id, bad).expect(400);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal([
        'definition.title', 'definition.questions.0.options', 'definition.questions.1.key', 'definition.questions.1.max', 'definition.questions.1.unit',
        'definition.questions.2.showWhen.question', 'definition.questions.3.options', 'definition.questions.3.required', 'definition.questions.4.showWhen.answers',
      ]);
      expect(res.body.error.fields[5].message).to.equal('Shown only when must name an earlier yes/no/other or choice question');
      // Nothing was saved.
      expect((await admin.agent.get(`/api/admin/research-projects/${project.id}`).expect(200)).body.versions).to.deep.equal([]);
    });

    it('saves a draft, publishes it as version 1 (audited), and keeps a published version from ever changing', async () => {
      const project = await createProject();
      const draft = await saveDraft(project.id, TOXICITY_STUDY).expect(200);
      expect(draft.body).to.include({ hasDraft: true, publishedVersion: null });
      expect(draft.body.versions[0]).to.include({ version: 1, publishedAt: null });
      const published = await publish(project.id).expect(200);
      expect(published.body).to.include({ hasDraft: false, publishedVersion: 1 });
      expect(published.body.versions[0]).to.include({ publishedBy: 'Ada Admin' });
      expect(published.body.versions[0].definition).to.deep.equal(TOXICITY_STUDY);
      const [audit] = await auditOf('questionnaire_version.published', project.id);
      expect(audit.details).to.include({ version: 1 });
      await publish(project.id).expect(409); // no draft left
      let refused: unknown;
      await t.ctx.db.sequelize.query('UPDATE questionnaire_versions SET definition = \'{"title":"x","questions":[]}\' WHERE id = :id', { replacements: { id: published.body.versions[0].id } })
        .catch((err: unknown) => { refused = err; });
      expect(String(refused)).to.match(/is published: it never changes/);
    });
  });

  describe('answers against a version', () => {
    it('shows the conditional question only when the earlier answer says so: hidden, it is not required and an answer to it is refused', async () => {
      const project = await publishedProject();
      const placed = (await order(project.id).expect(201)).body;
      const responseId = placed.studyResponseId;
      const first = await update(responseId, { hadToxicity: 'No', arm: 'A' }).expect(200);
      expect(first.body).to.include({ complete: true });
      expect(first.body.missing).to.deep.equal([]);
      expect(first.body.questionnaire).to.deep.include({ version: 1 });
      const hidden = await update(responseId, { toxicityDetail: 'Grade 2 mucositis' }).expect(400);
      expect(hidden.body.error.fields).to.deep.equal([{ field: 'answers.toxicityDetail', message: 'Toxicity details is not asked: asked when any toxicity is yes' }]);
      const yes = await update(responseId, { hadToxicity: 'Yes' }).expect(200);
      expect(yes.body).to.include({ complete: false });
      expect(yes.body.missing).to.deep.equal(['toxicityDetail']);
      const detail = await update(responseId, { toxicityDetail: 'Grade 2 mucositis', weightKg: 71.5 }).expect(200);
      expect(detail.body.complete).to.equal(true);
      // Hidden again: the answer that no longer applies is dropped.
      const no = await update(responseId, { hadToxicity: 'No' }).expect(200);
      expect(no.body.answers).to.deep.equal({ hadToxicity: 'No', arm: 'A', weightKg: 71.5 });
      const wrong = await update(responseId, { weightKg: 400, arm: 'C', visitDate: '2026-02-30', nope: 'x' }).expect(400);
      expect(wrong.body.error.fields.map((f: { field: string }) => f.field)).to.have.members(['answers.nope', 'answers.weightKg', 'answers.arm', 'answers.visitDate']);
      expect(wrong.body.error.fields.find((f: { field: string }) => f.field === 'answers.weightKg').message).to.equal('Weight must be between 20 and 300');
    });

    it('keeps each response on the version it was given under when a newer one is published', async () => {
      const project = await publishedProject();
      const before = (await order(project.id).expect(201)).body;
      const v2: QuestionnaireDefinition = { title: 'Toxicity follow-up, amended', questions: [...TOXICITY_STUDY.questions.slice(0, 2), { key: 'ecog', label: 'ECOG status', kind: 'choice', options: ['0', '1', '2', '3', '4'], required: true, section: 'Follow-up' }] };
      await saveDraft(project.id, v2).expect(200);
      const published = await publish(project.id).expect(200);
      expect(published.body.versions.map((v: { version: number; responses: number }) => [v.version, v.responses])).to.deep.equal([[2, 0], [1, 1]]);
      const after = (await order(project.id).expect(201)).body;
      const list = (await site.session.agent.get(site.api(`study-responses?projectId=${project.id}&pageSize=10`)).expect(200)).body;
      const versionOf = (id: number) => list.find((r: { id: number }) => r.id === id).questionnaire.version;
      expect(versionOf(before.studyResponseId)).to.equal(1);
      expect(versionOf(after.studyResponseId)).to.equal(2);
      // The old response answers version 1's questions, the new one version 2's.
      await update(before.studyResponseId, { arm: 'B', hadToxicity: 'No' }).expect(200);
      expect((await update(before.studyResponseId, { ecog: '1' }).expect(400)).body.error.fields[0].field).to.equal('answers.ecog');
      expect((await update(after.studyResponseId, { ecog: '1', hadToxicity: 'No' }).expect(200)).body).to.include({ complete: true });
      expect((await update(after.studyResponseId, { arm: 'A' }).expect(400)).body.error.fields[0].field).to.equal('answers.arm');
      const [row] = await t.ctx.db.sequelize.query<{ version: number }>(
        'SELECT v.version FROM study_responses r JOIN questionnaire_versions v ON v.id = r.questionnaire_version_id WHERE r.id = :id',
        { replacements: { id: before.studyResponseId }, type: QueryTypes.SELECT },
      );
      expect(row.version).to.equal(1);
    });

    it('keeps the demo project on the PROSTOX Research questionnaire, now data: version 1', async () => {
      const [row] = await t.ctx.db.sequelize.query<{ version: number; definition: unknown }>(
        `SELECT v.version, v.definition FROM questionnaire_versions v JOIN research_projects p ON p.id = v.research_project_id
          WHERE p.name = 'Radiation Toxicity Panels Study' ORDER BY v.version`,
        { type: QueryTypes.SELECT },
      );
      expect(row.version).to.equal(1);
      expect(row.definition).to.deep.equal(PROSTOX_RESEARCH_QUESTIONNAIRE);
    });
  });

  describe('closing', () => {
    it('closes a project: no new orders, its responses kept and still completed; it no longer changes', async () => {
      const project = await publishedProject();
      const placed = (await order(project.id).expect(201)).body;
      const closed = await admin.post(`/api/admin/research-projects/${project.id}/close`, {}).expect(200);
      expect(closed.body.closedAt).to.be.a('string');
      expect(closed.body.closedBy).to.equal('Ada Admin');
      const [audit] = await auditOf('research_project.closed', project.id);
      expect(audit.details).to.deep.include({ old: { closedAt: null } });
      const refused = await order(project.id).expect(409);
      expect(refused.body.error.fields).to.deep.equal([{ field: 'projectId', message: `${project.name} is closed: it takes no new orders` }]);
      expect((await update(placed.studyResponseId, { hadToxicity: 'No', arm: 'B' }).expect(200)).body.complete).to.equal(true);
      const listed = (await site.session.agent.get(site.api('research-projects')).expect(200)).body.find((p: { id: number }) => p.id === project.id);
      expect(listed.closedAt).to.be.a('string');
      expect(listed.participants).to.equal(1);
      await admin.post(`/api/admin/research-projects/${project.id}/close`, {}).expect(409);
      await saveDraft(project.id, TOXICITY_STUDY).expect(409);
    });

    it('answers 404 for a project that does not exist', async () => {
      await admin.agent.get('/api/admin/research-projects/987654321').expect(404);
      await admin.post('/api/admin/research-projects/987654321/close', {}).expect(404);
    });
  });
});

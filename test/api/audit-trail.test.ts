/**
 * The audit trail (issue 29, parts 3 and 4) through the API: the lab's admin reads every event and
 * an account's Super Admin only its account's; each filter; a sample, patient or user outside the
 * scope answers 404; the CSV (header, quoting, no formulas) and the PDF (made by the worker, read
 * with pdftotext); reading, exporting and verifying are audited; the hash chain is sealed and
 * verified, and a row changed or deleted behind the product's back is named by the verification.
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { AccessStatus, AccountRole, ProviderTitle, SampleStatus } from '@platform/domain';
import { hashPassword } from '@platform/server/auth/passwords';
import { recordAudit, sealAuditEvents, verifyAuditChain } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { createClinic, createResult, signInAs, uniq, type Clinic, type ResultFixture } from '../support/fixtures/reports';
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { binaryBody, pdfText } from '../support/pdf';
import { until } from '../support/wait';

interface TrailPage { events: Array<{ id: number; action: string; actor: { name: string; email: string } | null; ip: string | null; entityKind: string | null; entityId: string | null; entityLabel: string | null; changes: Array<{ field: string; old: unknown; new: unknown }>; sealed: boolean }>; nextBefore: number | null }

describe('api: the audit trail', function () {
  this.timeout(60_000);
  let t: TestApp;
  let worker: RunningWorker;
  let clinicA: Clinic;
  let clinicB: Clinic;
  let sampleA: ResultFixture;
  let sampleB: ResultFixture;
  let admin: Session;
  let lab: Session;
  let superAdminA: Session;
  let superAdminEmail: string;
  let physicianA: Session;

  /** A Super Admin of the account, signed in. */
  async function superAdminOf(clinic: Clinic): Promise<{ email: string; session: Session }> {
    const m = t.ctx.db.models;
    const email = `sa-${uniq()}@clinic.test`;
    const user = await m.User.create({ kind: 'provider', email, passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Sara', lastName: 'Boss', isActive: true });
    const contact = await m.Contact.create({ userId: user.id, firstName: 'Sara', lastName: 'Boss', email, title: ProviderTitle.Physician, specialty: null, accessStatus: AccessStatus.Approved });
    await m.AccountMembership.create({ accountId: clinic.account.id, contactId: contact.id, role: AccountRole.SuperAdmin, isActive: true });
    return { email, session: await signInAs(t.app, email, 'provider', '10.77.0.9') };
  }

  const trail = (s: Session, base: string, query: Record<string, string | number> = {}) => s.agent.get(base).set('X-Forwarded-For', '10.77.0.1').query(query);
  const adminTrail = (query: Record<string, string | number> = {}) => trail(admin, '/api/admin/audit-trail', query);
  const clinicBase = (c: Clinic) => `/api/provider-clinic/${c.account.id}/audit-trail`;
  /** `npm run audit:verify` on the test's database: its exit code and what it printed. */
  const auditVerifyScript = () => {
    const run = spawnSync('npm', ['run', '--silent', 'audit:verify'], { env: process.env, encoding: 'utf8', timeout: 60_000 });
    return { code: run.status, out: `${run.stdout}${run.stderr}` };
  };
  const lastAudit = async (action: string) => t.ctx.db.models.AuditEvent.findOne({ where: { action }, order: [['id', 'DESC']] });

  before(async function () {
    t = await buildTestApp();
    worker = await startTestWorker();
    clinicA = await createClinic(t.ctx.db, 'trail-a');
    clinicB = await createClinic(t.ctx.db, 'trail-b');
    sampleA = await createResult(t.ctx.db, { accountId: clinicA.account.id, physicianId: clinicA.physician.id, resultStatus: null, sampleStatus: SampleStatus.InTesting });
    sampleB = await createResult(t.ctx.db, { accountId: clinicB.account.id, physicianId: clinicB.physician.id, resultStatus: null, sampleStatus: SampleStatus.InTesting });
    admin = await signIn(t.app, 'admin', 'admin', '10.77.0.2');
    lab = await signIn(t.app, 'lab1', 'lab', '10.77.0.3');
    const sa = await superAdminOf(clinicA);
    superAdminA = sa.session;
    superAdminEmail = sa.email;
    physicianA = await signInAs(t.app, clinicA.email, 'provider', '10.77.0.4');
    // A correction of sample A by the lab (the product's own audit row), and a row in B's account.
    await lab.post('/api/lims/sample/update', { sampleId: sampleA.sampleId, reason: 'Collection time typed wrong', collectedAt: '2026-10-03T15:00:00.000Z' }).expect(200);
    await recordAudit(t.ctx.db, { actorUserId: clinicB.userId, actorKind: 'provider', action: 'sample.viewed', entityKind: 'sample', entityId: sampleB.sampleId, ip: '10.8.8.8', details: { accountId: clinicB.account.id } });
    // A value a spreadsheet would run as a formula.
    await recordAudit(t.ctx.db, { actorKind: 'system', action: 'sample.note_added', entityKind: 'sample', entityId: sampleA.sampleId, details: { old: { note: null }, new: { note: '=HYPERLINK("http://x","y"), "quoted"' } } });
  });

  after(async function () {
    await worker?.close();
    await t?.close();
  });

  it('shows the lab\'s admin a sample\'s correction: who, when, from where, what, the old and new values', async function () {
    const res = await adminTrail({ barcode: sampleA.barcode }).expect(200);
    const page = res.body as TrailPage;
    const correction = page.events.find((e) => e.action === 'sample.metadata_corrected');
    expect(correction, 'the correction').to.not.equal(undefined);
    expect(correction!.actor).to.deep.include({ name: 'Leo Bench', email: 'lab1@demo.test' });
    expect(correction!.ip).to.equal('10.77.0.3');
    expect(correction!.entityLabel).to.equal(sampleA.barcode);
    expect(correction!.changes).to.have.length(1);
    expect(correction!.changes[0].field).to.equal('collectedAt');
    expect(String(correction!.changes[0].new)).to.contain('2026-10-03');
    expect(page.events.every((e) => e.entityKind === 'sample' && e.entityId === String(sampleA.sampleId) || e.entityKind === 'test')).to.equal(true);
    expect(page.events.map((e) => e.action)).to.not.include('sample.viewed');
  });

  it('filters by user, action (or its prefix), patient and time, and pages by id, newest first', async function () {
    const byUser = (await adminTrail({ user: 'LAB1@demo.test', action: 'sample.metadata_corrected' }).expect(200)).body as TrailPage;
    expect(byUser.events.length).to.be.greaterThan(0);
    expect(byUser.events.every((e) => e.actor?.email === 'lab1@demo.test' && e.action === 'sample.metadata_corrected')).to.equal(true);
    const byPrefix = (await adminTrail({ barcode: sampleA.barcode, action: 'sample' }).expect(200)).body as TrailPage;
    expect(byPrefix.events.map((e) => e.action)).to.include.members(['sample.metadata_corrected', 'sample.note_added']);
    const byPatient = (await adminTrail({ patientId: sampleA.patientId }).expect(200)).body as TrailPage;
    expect(byPatient.events.map((e) => e.action)).to.include('sample.metadata_corrected');
    const future = (await adminTrail({ barcode: sampleA.barcode, from: '2100-01-01T00:00:00Z' }).expect(200)).body as TrailPage;
    expect(future.events).to.deep.equal([]);
    const first = (await adminTrail({ limit: 2 }).expect(200)).body as TrailPage;
    expect(first.events).to.have.length(2);
    expect(first.events[0].id).to.be.greaterThan(first.events[1].id);
    const second = (await adminTrail({ limit: 2, before: first.nextBefore! }).expect(200)).body as TrailPage;
    expect(second.events[0].id).to.be.lessThan(first.events[1].id);
  });

  it('answers 400 naming the field for a bad filter, and 404 for a barcode, patient or user that does not exist', async function () {
    const bad = await adminTrail({ from: 'yesterday' }).expect(400);
    expect(JSON.stringify(bad.body)).to.contain('from');
    await adminTrail({ barcode: 'NOPE-0000' }).expect(404);
    await adminTrail({ patientId: 999999999 }).expect(404);
    const noUser = await adminTrail({ user: 'nobody@nowhere.test' }).expect(404);
    expect(JSON.stringify(noUser.body)).to.contain('user');
  });

  it('shows a Super Admin only its account\'s events; another account\'s sample, patient or user answers 404', async function () {
    const own = (await trail(superAdminA, clinicBase(clinicA), { barcode: sampleA.barcode }).expect(200)).body as TrailPage;
    expect(own.events.map((e) => e.action)).to.include('sample.metadata_corrected');
    const all = (await trail(superAdminA, clinicBase(clinicA), { limit: 200 }).expect(200)).body as TrailPage;
    expect(all.events.some((e) => e.entityId === String(sampleB.sampleId) && e.entityKind === 'sample')).to.equal(false);
    await trail(superAdminA, clinicBase(clinicA), { barcode: sampleB.barcode }).expect(404);
    await trail(superAdminA, clinicBase(clinicA), { patientId: sampleB.patientId }).expect(404);
    await trail(superAdminA, clinicBase(clinicA), { user: clinicB.email }).expect(404);
    // Another account's trail is not this Super Admin's.
    await trail(superAdminA, clinicBase(clinicB)).expect(404);
  });

  it('refuses the trail to a provider without the Super Admin role and to a lab user', async function () {
    await trail(physicianA, clinicBase(clinicA)).expect(403);
    await trail(lab, '/api/admin/audit-trail').expect(403);
    await trail(superAdminA, '/api/admin/audit-trail').expect(403);
    await superAdminA.post(`${clinicBase(clinicA)}/verify`).expect(404);
  });

  it('audits each read of the trail with its filters', async function () {
    await trail(superAdminA, clinicBase(clinicA), { barcode: sampleA.barcode, action: 'sample' }).expect(200);
    const read = await lastAudit('audit_trail.read');
    expect(read!.ip).to.equal('10.77.0.1');
    expect(read!.details).to.deep.include({ scope: 'account', accountId: clinicA.account.id, filters: { barcode: sampleA.barcode, action: 'sample' } });
    // The Super Admin's own reads are in the account's trail.
    const mine = (await trail(superAdminA, clinicBase(clinicA), { user: superAdminEmail, action: 'audit_trail' }).expect(200)).body as TrailPage;
    expect(mine.events.map((e) => e.action)).to.include('audit_trail.read');
  });

  it('exports the filtered trail as CSV: a header row, quoted cells, no formulas; audited', async function () {
    const res = await admin.agent.get('/api/admin/audit-trail/export.csv').query({ barcode: sampleA.barcode }).buffer(true).parse(binaryBody).expect(200);
    expect(res.headers['content-type']).to.match(/^text\/csv/);
    expect(res.headers['content-disposition']).to.match(/attachment; filename="audit-trail-.*\.csv"/);
    const csv = (res.body as Buffer).toString('utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).to.equal('id,at,actor_name,actor_email,actor_kind,ip,action,entity_kind,entity_id,entity,changes,details,hash');
    const correction = lines.find((l) => l.includes('sample.metadata_corrected'))!;
    expect(correction).to.contain('Leo Bench,lab1@demo.test,lab,10.77.0.3,sample.metadata_corrected,sample');
    expect(correction).to.contain(',collectedAt: 2026-10-02T15:00:00.000Z -> 2026-10-03T15:00:00.000Z,"{""reason"":""Collection time typed wrong""');
    const note = lines.find((l) => l.includes('sample.note_added'))!;
    // The changed value starts with "=": the changes cell is "note: — -> =…" (safe), and details' JSON cell starts with "{".
    expect(note).to.contain('"note: ');
    expect(note).to.contain('""quoted""');
    for (const line of lines.slice(1).filter(Boolean)) {
      for (const cell of line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []) expect(cell.replace(/^"/, '')).to.not.match(/^[=+\-@]/);
    }
    const exported = await lastAudit('audit_trail.exported');
    expect(exported!.details).to.deep.include({ format: 'csv', filters: { barcode: sampleA.barcode } });
  });

  it('neutralises a cell that would start a formula', async function () {
    await recordAudit(t.ctx.db, { actorKind: 'system', action: 'sample.formula_probe', entityKind: 'sample', entityId: sampleA.sampleId, ip: '=1+1' });
    const res = await admin.agent.get('/api/admin/audit-trail/export.csv').query({ action: 'sample.formula_probe' }).buffer(true).parse(binaryBody).expect(200);
    const line = (res.body as Buffer).toString('utf8').split('\r\n')[1];
    expect(line).to.contain(",system,'=1+1,sample.formula_probe,");
  });

  it('makes a PDF of the filtered trail in the worker: title, filters, generated at and by, the events, page numbers; audited', async function () {
    const requested = await admin.post('/api/admin/audit-trail/exports', { barcode: sampleA.barcode }).expect(202);
    expect(requested.body.status).to.equal('Pending');
    const done = await until(async () => {
      const r = await admin.agent.get(`/api/admin/audit-trail/exports/${requested.body.id}`).expect(200);
      return r.body.status === 'Pending' ? null : r.body;
    }, { what: 'the PDF export to finish', timeoutMs: 30_000 });
    expect(done.status).to.equal('Completed');
    const pdf = await admin.agent.get(done.downloadPath.replace(/^/, '/api')).buffer(true).parse(binaryBody).expect(200);
    expect(pdf.headers['content-type']).to.equal('application/pdf');
    const text = pdfText(pdf.body as Buffer);
    expect(text).to.contain('Audit trail');
    expect(text).to.contain(`Sample barcode ${sampleA.barcode}`);
    expect(text).to.contain('Generated by Ada Admin (admin@demo.test)');
    expect(text).to.contain('sample.metadata_corrected');
    expect(text).to.contain('lab1@demo.test');
    expect(text).to.match(/collectedAt: 2026-10-02T15:00:00.000Z → 2026-10-03T15:00:00.000Z|collectedAt: 2026-10-02T15:00:00\.000Z/);
    expect(text).to.match(/page 1 of \d+/);
    const exported = await lastAudit('audit_trail.exported');
    expect(exported!.details).to.deep.include({ format: 'pdf', jobId: requested.body.id });
    // Someone else's export is not theirs to read.
    await trail(superAdminA, `${clinicBase(clinicA)}/exports/${requested.body.id}`).expect(404);
  });

  describe('the hash chain', function () {
    it('seals new rows in order, and a sealed row cannot be changed or deleted through the product\'s connection', async function () {
      await sealAuditEvents(t.ctx.db, { wait: true });
      const page = (await adminTrail({ barcode: sampleA.barcode }).expect(200)).body as TrailPage;
      expect(page.events.every((e) => e.sealed)).to.equal(true);
      const row = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'sample.metadata_corrected' }, order: [['id', 'DESC']] });
      expect(row!.hash).to.match(/^[0-9a-f]{64}$/);
      for (const sql of [`UPDATE audit_events SET details = '{}' WHERE id = ${row!.id}`, `UPDATE audit_events SET hash = NULL, prev_hash = NULL, chain_seq = NULL WHERE id = ${row!.id}`, `DELETE FROM audit_events WHERE id = ${row!.id}`]) {
        let error: unknown = null;
        await t.ctx.db.sequelize.query(sql).catch((e: unknown) => { error = e; });
        expect(String(error), sql).to.contain('append-only');
      }
    });

    it('verifies the chain from the page\'s button (audited) and from npm run audit:verify', async function () {
      const res = await admin.post('/api/admin/audit-trail/verify').expect(200);
      expect(res.body).to.include({ ok: true, broken: null });
      expect(res.body.checked).to.be.greaterThan(0);
      const verified = await lastAudit('audit_trail.verified');
      expect(verified!.details).to.include({ ok: true, brokenId: null });
      const script = auditVerifyScript();
      expect(script.code, script.out).to.equal(0);
      expect(script.out).to.match(/Audit trail verified: \d+ sealed row\(s\) hold/);
    });

    it('names a row changed behind the product\'s back, and the row after one deleted', async function () {
      const db = t.ctx.db;
      await sealAuditEvents(db, { wait: true });
      const row = await db.models.AuditEvent.findOne({ where: { action: 'sample.metadata_corrected' }, order: [['id', 'DESC']], raw: true });
      const original = JSON.stringify(row!.details);
      // As a database superuser would: around the trigger.
      const behindTheBack = async (sql: string) => db.sequelize.transaction(async (transaction) => {
        await db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction });
        await db.sequelize.query(sql, { transaction });
      });
      await behindTheBack(`UPDATE audit_events SET details = jsonb_set(details, '{reason}', '"nothing happened"') WHERE id = ${row!.id}`);
      try {
        const res = await admin.post('/api/admin/audit-trail/verify').expect(200);
        expect(res.body.ok).to.equal(false);
        expect(res.body.broken.id).to.equal(Number(row!.id));
        expect(res.body.broken.reason).to.contain('changed after it was sealed');
        expect((await lastAudit('audit_trail.verified'))!.details).to.include({ ok: false, brokenId: Number(row!.id) });
        const script = auditVerifyScript();
        expect(script.code).to.equal(1);
        expect(script.out).to.contain(`Audit trail BROKEN at row ${row!.id}`);
      } finally {
        await behindTheBack(`UPDATE audit_events SET details = '${original.replaceAll("'", "''")}'::jsonb WHERE id = ${row!.id}`);
      }
      expect((await verifyAuditChain(db)).ok, 'restored').to.equal(true);

      const [next] = await db.sequelize.query<{ id: string }>(`SELECT id::text AS id FROM audit_events WHERE chain_seq = (SELECT chain_seq + 1 FROM audit_events WHERE id = ${row!.id})`, { type: 'SELECT' as never });
      const [saved] = await db.sequelize.query<{ row: string }>(`SELECT to_jsonb(e)::text AS row FROM audit_events e WHERE id = ${row!.id}`, { type: 'SELECT' as never });
      await behindTheBack(`DELETE FROM audit_events WHERE id = ${row!.id}`);
      try {
        const check = await verifyAuditChain(db);
        expect(check.ok).to.equal(false);
        expect(check.broken!.id).to.equal(Number(next.id));
        expect(check.broken!.reason).to.contain('missing');
      } finally {
        await db.sequelize.query('INSERT INTO audit_events SELECT * FROM jsonb_populate_record(NULL::audit_events, CAST(:row AS jsonb))', { replacements: { row: saved.row } });
      }
      expect((await verifyAuditChain(db)).ok, 'restored').to.equal(true);
    });
  });
});

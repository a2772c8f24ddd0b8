/**
 * Migrations and models against a scratch PostgreSQL database made for this run:
 * up from empty, models match tables, constraints and the append-only audit log bite,
 * down to empty, each down undoes its up exactly, up again.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { QueryTypes, type ModelAttributeColumnOptions } from 'sequelize';
import {
  connect,
  createDatabase,
  createMigrator,
  databaseUrl,
  dropDatabase,
  MIGRATIONS_DIR,
  TestResultStatus,
  User,
  type Db,
} from '@platform/db';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_migrations_${process.pid}_${Date.now()}`;

const TABLES = [
  'account_addresses', 'account_invitations', 'account_memberships', 'account_support_mailboxes', 'accounts', 'api_access_tokens', 'api_clients', 'audit_archives', 'audit_events', 'cancer_diagnoses', 'caught_mail', 'contacts', 'departments', 'dna_extractions', 'documents',
  'email_campaign_recipients', 'email_campaigns', 'emails', 'files', 'financial_assistance_records', 'elr_batches', 'elr_settings', 'hl7_interfaces', 'hl7_messages', 'insurance_plans', 'jobs', 'orders', 'outbox',
  'password_reset_tokens', 'patient_corrections', 'patient_invitations', 'payment_events', 'patient_release_policies', 'patient_result_links', 'patient_result_releases', 'patients', 'pcr_plate_wells', 'pcr_plates', 'physicians',
  'provider_staff_relationships', 'remembered_devices', 'sample_follow_up_links', 'sample_follow_ups', 'sample_status_events', 'samples', 'schema_migrations',
  'session', 'shipment_items', 'shipments', 'signatures', 'signed_results', 'questionnaire_versions', 'research_project_accounts', 'research_projects', 'storage_plate_wells', 'storage_plates', 'study_responses', 'technicians', 'sample_turnaround', 'test_results', 'tests', 'turnaround_targets', 'two_factor_factors', 'two_factor_recovery_codes', 'users',
  'webhook_deliveries', 'webhook_delivery_attempts', 'webhook_events',
  'shipment_rates', 'shipment_tracking_events',
  'sms_opt_outs', 'text_messages',
].sort();

const MIGRATION_NAMES = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

async function tables(db: Db): Promise<string[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    // A partition (the audit table's months) is part of its table, not a table of its own.
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = table_name AND c.relispartition) ORDER BY 1`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

/** Everything a migration can create in the public schema, as sorted lines. */
async function schema(db: Db): Promise<string[]> {
  const rows = await db.sequelize.query<{ line: string }>(
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgtype FROM pg_trigger WHERE NOT tgisinternal
     UNION ALL SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p WHERE pronamespace = 'public'::regnamespace
     UNION ALL SELECT 'sequence ' || sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public'
     UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace AND typtype IN ('e', 'd', 'r')
     UNION ALL SELECT 'view ' || table_name FROM information_schema.views WHERE table_schema = 'public'
     UNION ALL SELECT 'extension ' || extname FROM pg_extension
     ORDER BY 1`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.line);
}

/** The PostgreSQL error code a promise rejects with (Sequelize wraps the driver's error). */
async function pgCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: string; parent?: { code?: string }; original?: { code?: string } };
    return e.parent?.code ?? e.original?.code ?? e.code ?? `no code: ${String(err)}`;
  }
  throw new Error('expected the statement to fail');
}

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const INSUFFICIENT_PRIVILEGE = '42501';

describe('db: migrations and models', function () {
  let db: Db;
  let migrator: ReturnType<typeof createMigrator>;
  let firstSchema: string[];

  before(async function () {
    await createDatabase(ADMIN_URL, DB_NAME);
    db = connect(databaseUrl(ADMIN_URL, DB_NAME), { poolMax: 4 });
    migrator = createMigrator(db.sequelize);
  });

  after(async function () {
    try {
      await db?.close();
    } finally {
      await dropDatabase(ADMIN_URL, DB_NAME);
    }
  });

  describe('up', function () {
    it('finds one timestamped file per migration', function () {
      expect(MIGRATION_NAMES).to.have.length.greaterThan(0);
      for (const name of MIGRATION_NAMES) expect(name).to.match(/^\d{14}-[a-z0-9-]+$/);
    });

    it('runs every migration up from an empty database', async function () {
      expect(await tables(db)).to.deep.equal([]);
      const ran = await migrator.up();
      expect(ran.map((m) => m.name)).to.deep.equal(MIGRATION_NAMES);
      expect((await migrator.pending()).length).to.equal(0);
      expect(await tables(db)).to.deep.equal(TABLES);
      firstSchema = await schema(db);
    });

    it('has a table column for every model attribute and a model attribute for every column', async function () {
      for (const model of Object.values(db.models)) {
        const table = model.getTableName() as string;
        const columns = await db.sequelize.query<{ column_name: string; is_nullable: string; column_default: string | null }>(
          `SELECT column_name, is_nullable, column_default FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = :table`,
          { type: QueryTypes.SELECT, replacements: { table } },
        );
        expect(columns, `table ${table}`).to.not.be.empty;
        const byName = new Map(columns.map((c) => [c.column_name, c]));
        const fields = new Set<string>();
        for (const [name, attr] of Object.entries(model.getAttributes() as Record<string, ModelAttributeColumnOptions>)) {
          const field = attr.field ?? name;
          fields.add(field);
          const column = byName.get(field);
          expect(column, `${table}.${field} (${model.name}.${name})`).to.not.equal(undefined);
          if (attr.allowNull === false) expect(column!.is_nullable, `${table}.${field} NOT NULL`).to.equal('NO');
          if (column!.is_nullable === 'NO' && column!.column_default === null) {
            expect(attr.allowNull, `${model.name}.${name} allowNull: false`).to.equal(false);
          }
        }
        expect([...byName.keys()].filter((c) => !fields.has(c)), `columns of ${table} without attribute`).to.deep.equal([]);
      }
    });

  });

  describe('with data', function () {
    let lab1: User;
    let lab2: User;
    let accountId: number;
    let patientId: number;
    let orderId: number;
    let sampleId: number;

    before(async function () {
      const m = db.models;
      lab1 = await m.User.create({ kind: 'lab', email: 'lab1@example.org', firstName: 'Lee', lastName: 'One' });
      lab2 = await m.User.create({ kind: 'lab', email: 'lab2@example.org', firstName: 'Lee', lastName: 'Two' });
      const account = await m.Account.create({ name: 'Clinic', clinicAccess: true });
      accountId = account.id;
      const patient = await m.Patient.create({ accountId, firstName: 'Pat', lastName: 'Doe', dateOfBirth: '1950-02-03' });
      patientId = patient.id;
      const order = await m.Order.create({
        orderNumber: 'RF_000000001', accountId, patientId, origin: 'Provider Ordered', portal: 'Clinical Portal',
      });
      orderId = order.id;
      const sample = await m.Sample.create({ barcode: '41000000000001', sampleType: 'Buccal Swab', accountId, patientId, orderId });
      sampleId = sample.id;
    });

    it('reads ids as numbers and database defaults back on create', async function () {
      expect(lab1.id).to.be.a('number');
      expect(lab1.isActive).to.equal(true);
      const account = await db.models.Account.findByPk(accountId, { rejectOnEmpty: true });
      expect(account.type).to.equal('General');
      expect(account.clinicAccess).to.equal(true);
      const sample = await db.models.Sample.findByPk(sampleId, { rejectOnEmpty: true });
      expect(sample.status).to.equal('Order Placed');
      expect(sample.patientId).to.equal(patientId);
      const count = await db.sequelize.query<{ n: number }>('SELECT count(*) AS n FROM samples', { type: QueryTypes.SELECT });
      expect(count[0]!.n).to.equal(1);
    });

    it('loads associations', async function () {
      const test = await db.models.Test.create({ orderId, sampleId, name: 'PROSTOX ultra', parentType: 'PROSTOX' });
      expect(test.status).to.equal('Ordered');
      await db.models.TestResult.create({ testId: test.id, version: 1, value: 'Low Risk', enteredByUserId: lab1.id });
      await db.models.SampleStatusEvent.create({
        sampleId, fromStatus: null, toStatus: 'Order Placed', actorKind: 'system',
      });
      const sample = await db.models.Sample.findByPk(sampleId, {
        rejectOnEmpty: true,
        include: [
          { model: db.models.Patient, as: 'patient' },
          { model: db.models.Order, as: 'order' },
          { model: db.models.Account, as: 'account' },
          { model: db.models.SampleStatusEvent, as: 'statusEvents' },
          { model: db.models.Test, as: 'tests', include: [{ model: db.models.TestResult, as: 'results' }] },
        ],
      });
      expect(sample.patient?.lastName).to.equal('Doe');
      expect(sample.order?.orderNumber).to.equal('RF_000000001');
      expect(sample.account?.name).to.equal('Clinic');
      expect(sample.statusEvents).to.have.length(1);
      expect(sample.tests?.[0]?.results?.[0]?.status).to.equal(TestResultStatus.InReview);
    });

    it('refuses a duplicate barcode', async function () {
      const code = await pgCode(db.models.Sample.create({ barcode: '41000000000001', patientId, orderId }));
      expect(code).to.equal(UNIQUE_VIOLATION);
    });

    it('refuses a second user with the same email in another case', async function () {
      const code = await pgCode(db.models.User.create({ kind: 'admin', email: 'LAB1@example.org', firstName: 'x', lastName: 'y' }));
      expect(code).to.equal(UNIQUE_VIOLATION);
    });

    it('refuses a status that is not one of the enumeration', async function () {
      const bad = 'Lost In Space' as unknown as 'Order Placed';
      expect(await pgCode(db.models.Sample.update({ status: bad }, { where: { id: sampleId } }))).to.equal(CHECK_VIOLATION);
      expect(await pgCode(db.sequelize.query(`UPDATE samples SET status = 'in testing' WHERE id = ${sampleId}`))).to.equal(CHECK_VIOLATION);
      const sample = await db.models.Sample.findByPk(sampleId, { rejectOnEmpty: true });
      expect(sample.status).to.equal('Order Placed');
    });

    it('refuses In Storage without the status to go back to', async function () {
      const code = await pgCode(db.models.Sample.update({ status: 'In Storage' }, { where: { id: sampleId } }));
      expect(code).to.equal(CHECK_VIOLATION);
      await db.models.Sample.update({ status: 'In Storage', statusBeforeStorage: 'Order Placed' }, { where: { id: sampleId } });
      await db.models.Sample.update({ status: 'Order Placed', statusBeforeStorage: null }, { where: { id: sampleId } });
    });

    it('refuses a review by the person who entered the result', async function () {
      const test = await db.models.Test.create({ orderId, sampleId, name: 'KRAS' });
      const result = await db.models.TestResult.create({ testId: test.id, version: 1, value: 'T/T negative', enteredByUserId: lab1.id });
      const code = await pgCode(result.update({ reviewedByUserId: lab1.id, reviewedAt: new Date(), status: 'Released' }));
      expect(code).to.equal(CHECK_VIOLATION);
      await result.reload();
      await result.update({ reviewedByUserId: lab2.id, reviewedAt: new Date(), status: 'Released' });
      expect(result.status).to.equal('Released');
      // A correction is a new version; the same version number twice is refused.
      const dup = db.models.TestResult.create({ testId: test.id, version: 1, value: 'G/G positive homozygous', enteredByUserId: lab1.id });
      expect(await pgCode(dup)).to.equal(UNIQUE_VIOLATION);
      // Only one released version per test.
      const v2 = await db.models.TestResult.create({
        testId: test.id, version: 2, value: 'G/G positive homozygous', enteredByUserId: lab1.id, correctionReason: 'typo',
      });
      expect(await pgCode(v2.update({ status: 'Released', reviewedByUserId: lab2.id }))).to.equal(UNIQUE_VIOLATION);
    });

    it('refuses a shipment item naming both a sample and a document, or neither', async function () {
      const shipment = await db.models.Shipment.create({ accountId });
      expect(shipment.status).to.equal('Not Ready to Ship');
      const file = await db.models.StoredFile.create({
        kind: 'Upload', name: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1, sha256: 'a'.repeat(64), content: Buffer.from('x'),
      });
      const doc = await db.models.SampleDocument.create({ type: 'lab_report', sampleId, fileId: file.id });
      expect(doc.version).to.equal(1);
      const both = db.models.ShipmentItem.create({ shipmentId: shipment.id, kind: 'Test', sampleId, documentId: doc.id });
      expect(await pgCode(both)).to.equal(CHECK_VIOLATION);
      const neither = db.models.ShipmentItem.create({ shipmentId: shipment.id, kind: 'Document' });
      expect(await pgCode(neither)).to.equal(CHECK_VIOLATION);
      await db.models.ShipmentItem.create({ shipmentId: shipment.id, kind: 'Test', sampleId });
      await db.models.ShipmentItem.create({ shipmentId: shipment.id, kind: 'Document', documentId: doc.id });
      const loaded = await db.models.StoredFile.findByPk(file.id, { rejectOnEmpty: true });
      expect(loaded.content, 'content is left out by default').to.equal(undefined);
      const withContent = await db.models.StoredFile.scope('withContent').findByPk(file.id, { rejectOnEmpty: true });
      expect(withContent.content.toString()).to.equal('x');
    });

    it('keeps the audit log append-only: UPDATE, DELETE and TRUNCATE are refused', async function () {
      const event = await db.models.AuditEvent.create({
        actorUserId: lab1.id, actorKind: 'lab', action: 'sample.view', entityKind: 'sample', entityId: String(sampleId),
      });
      expect(event.at).to.be.instanceOf(Date);
      expect(event.details).to.deep.equal({});
      expect(await pgCode(db.sequelize.query(`UPDATE audit_events SET action = 'x'`))).to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(event.update({ action: 'changed' }))).to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(db.sequelize.query(`DELETE FROM audit_events`))).to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(event.destroy())).to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(db.sequelize.query(`TRUNCATE audit_events`))).to.equal(INSUFFICIENT_PRIVILEGE);
      const rows = await db.models.AuditEvent.findAll();
      expect(rows.map((r) => r.action)).to.deep.equal(['sample.view']);
    });

    it('lets only the sealer set an audit row\'s chain columns, once, and nothing else with them', async function () {
      const event = await db.models.AuditEvent.create({ actorKind: 'system', action: 'chain.probe' });
      const seal = (extra = '') => db.sequelize.query(`UPDATE audit_events SET chain_seq = 1000000, prev_hash = 'p', hash = 'h'${extra} WHERE id = ${event.id}`);
      expect(await pgCode(seal(`, action = 'x'`)), 'sealing with another change').to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(db.sequelize.query(`UPDATE audit_events SET hash = 'h' WHERE id = ${event.id}`)), 'a hash alone').to.equal(INSUFFICIENT_PRIVILEGE);
      await seal();
      expect(await pgCode(db.sequelize.query(`UPDATE audit_events SET hash = 'other' WHERE id = ${event.id}`)), 'a sealed row').to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(db.sequelize.query(`UPDATE audit_events SET details = '{"x":1}' WHERE id = ${event.id}`))).to.equal(INSUFFICIENT_PRIVILEGE);
      expect(await pgCode(db.sequelize.query(`DELETE FROM audit_events WHERE id = ${event.id}`))).to.equal(INSUFFICIENT_PRIVILEGE);
    });

    it('keeps webhook events and outbox keys unique', async function () {
      await db.models.WebhookEvent.create({ source: 'stripe', eventId: 'evt_1' });
      expect(await pgCode(db.models.WebhookEvent.create({ source: 'stripe', eventId: 'evt_1' }))).to.equal(UNIQUE_VIOLATION);
      const entry = await db.models.Outbox.create({ jobName: 'send-email', payload: { emailId: 1 }, idempotencyKey: 'k1' });
      expect(entry.status).to.equal('pending');
      expect(await pgCode(db.models.Outbox.create({ jobName: 'send-email', payload: {}, idempotencyKey: 'k1' }))).to.equal(UNIQUE_VIOLATION);
    });

    it('gives each connection its own models', async function () {
      const other = connect(databaseUrl(ADMIN_URL, DB_NAME), { poolMax: 1 });
      try {
        expect(other.models.User).to.not.equal(db.models.User);
        const u = await other.models.User.findByPk(lab1.id, { rejectOnEmpty: true });
        expect(u).to.be.instanceOf(User);
        expect(u.email).to.equal('lab1@example.org');
      } finally {
        await other.close();
      }
      expect(await db.models.User.count()).to.equal(2);
    });
  });

  describe('down and up again', function () {
    it('runs every migration down to an empty database', async function () {
      const reverted = await migrator.down({ to: 0 });
      expect(reverted.map((m) => m.name)).to.deep.equal([...MIGRATION_NAMES].reverse());
      expect(await tables(db)).to.deep.equal(['schema_migrations']);
      const left = (await schema(db)).filter((l) => !l.includes('schema_migrations') && !l.startsWith('extension plpgsql'));
      expect(left).to.deep.equal([]);
      expect(await migrator.executed()).to.deep.equal([]);
    });

    it('undoes each migration exactly with its down', async function () {
      // Three runs and four schema reads per migration: its time grows with their number, it does not wait on anything.
      this.timeout(MIGRATION_NAMES.length * 2_000);
      for (const name of MIGRATION_NAMES) {
        const before = await schema(db);
        await migrator.up({ step: 1 });
        const after = await schema(db);
        expect(after, `${name} up changes the schema`).to.not.deep.equal(before);
        await migrator.down({ step: 1 });
        expect(await schema(db), `${name} down`).to.deep.equal(before);
        await migrator.up({ step: 1 });
        expect(await schema(db), `${name} up again`).to.deep.equal(after);
      }
    });

    it('builds the same schema when run up again', async function () {
      expect((await migrator.executed()).map((m) => m.name)).to.deep.equal(MIGRATION_NAMES);
      expect(await schema(db)).to.deep.equal(firstSchema);
    });
  });
});

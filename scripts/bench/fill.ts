/**
 * The bench's data, bulk-loaded with INSERT … SELECT over generate_series (no row-by-row writes):
 * `accounts` accounts (the demo ones plus generated clinics, each with one approved provider user,
 * a physician and an email in the log), `samples` samples with their patient, order and test, of
 * which `large` belong to the large account (Riverside Oncology) and the rest are spread evenly over
 * every other account (Lakeside Urology is the typical clinic, Northwind Research the typical
 * research account), ordered evenly over the last two years (SPAN_DAYS). Statuses cycle through the lifecycle; samples have the status events of
 * their steps (shipped, received, resulted, released), samples In Testing a result In Review (the lab's review list), half the kits Pending
 * Shipment a shipment. `importRows` more samples In Queue in the large account are left for the
 * import, their barcodes returned. Then `auditRows` audit rows, a busy lab's year of reads and
 * writes over the last 12 months (./audit-fill.ts).
 */
import type pg from 'pg';
import { fillAuditYear } from './audit-fill';

/** The days over which the samples were ordered. */
export const SPAN_DAYS = 730;

export interface FillSizes {
  accounts: number;
  samples: number;
  large: number;
  importRows: number;
  /** Audit rows over the last 12 months (issue 32: 30,000,000 at full size; none when left out). */
  auditRows?: number;
}

export interface Filled {
  largeAccountId: number;
  typicalAccountId: number;
  researchAccountId: number;
  importBarcodes: string[];
  generatedUsers: number;
  /** The audit rows written and how long that took. */
  audit: { rows: number; seconds: number };
}

const STATUSES = ['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Testing', 'Resulted', 'Completed'];

/**
 * Patients' names: common US last and first names, so that the patient search meets what a real
 * registry holds (a name is shared by about 1% of patients, a first and last name together by
 * about 0.01%). Names made of one word and a number ("Patient123") would put the same trigrams
 * in every row, which no registry has.
 */
export const BENCH_LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes',
  'Stewart', 'Morris', 'Morales', 'Murphy', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper',
  'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson',
  'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes',
  'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez',
];
export const BENCH_FIRST_NAMES = [
  'James', 'Robert', 'John', 'Michael', 'David', 'William', 'Richard', 'Joseph', 'Thomas', 'Charles',
  'Christopher', 'Daniel', 'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven', 'Paul', 'Andrew', 'Joshua',
  'Kenneth', 'Kevin', 'Brian', 'George', 'Timothy', 'Ronald', 'Edward', 'Jason', 'Jeffrey', 'Ryan',
  'Jacob', 'Gary', 'Nicholas', 'Eric', 'Jonathan', 'Stephen', 'Larry', 'Justin', 'Scott', 'Brandon',
  'Benjamin', 'Samuel', 'Gregory', 'Alexander', 'Frank', 'Patrick', 'Raymond', 'Jack', 'Dennis', 'Jerry',
  'Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah', 'Karen',
  'Lisa', 'Nancy', 'Betty', 'Margaret', 'Sandra', 'Ashley', 'Kimberly', 'Emily', 'Donna', 'Michelle',
  'Carol', 'Amanda', 'Dorothy', 'Melissa', 'Deborah', 'Stephanie', 'Rebecca', 'Sharon', 'Laura', 'Cynthia',
  'Kathleen', 'Amy', 'Angela', 'Shirley', 'Anna', 'Brenda', 'Pamela', 'Emma', 'Nicole', 'Helen',
  'Samantha', 'Katherine', 'Christine', 'Debra', 'Rachel', 'Carolyn', 'Janet', 'Catherine', 'Maria', 'Heather',
];

export async function fill(client: pg.Client, sizes: FillSizes, labUserId: number): Promise<Filled> {
  const one = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows[0];
  const accountId = async (name: string) => Number((await one('SELECT id FROM accounts WHERE name = $1', [name])).id);
  const largeAccountId = await accountId('Riverside Oncology');
  const typicalAccountId = await accountId('Lakeside Urology');
  const researchAccountId = await accountId('Northwind Research');
  const projectId = Number((await one('SELECT research_project_id AS id FROM research_project_accounts WHERE account_id = $1 ORDER BY research_project_id LIMIT 1', [researchAccountId])).id);
  const existing = Number((await one('SELECT count(*) AS n FROM accounts')).n);
  const generated = Math.max(0, sizes.accounts - existing);

  await client.query(`
    INSERT INTO accounts (name, type, clinic_access, research_access, is_active)
    SELECT 'Bench Clinic ' || g, 'General', true, false, true FROM generate_series(1, $1) g`, [generated]);
  await client.query(`
    INSERT INTO users (kind, email, first_name, last_name, is_active)
    SELECT 'provider', 'bench' || a.id || '@bench.test', 'Bench', 'Provider ' || a.id, true FROM accounts a WHERE a.name LIKE 'Bench Clinic %'`);
  await client.query(`
    INSERT INTO contacts (user_id, first_name, last_name, email, title, access_status)
    SELECT u.id, u.first_name, u.last_name, u.email, 'Physician', 'Approved' FROM users u WHERE u.email LIKE 'bench%@bench.test'`);
  await client.query(`
    INSERT INTO account_memberships (account_id, contact_id, role, is_active)
    SELECT a.id, c.id, 'Physician', true FROM accounts a JOIN contacts c ON c.email = 'bench' || a.id || '@bench.test'`);
  await client.query(`
    INSERT INTO physicians (account_id, contact_id, first_name, last_name)
    SELECT m.account_id, m.contact_id, 'Bench', 'Doctor ' || m.account_id FROM account_memberships m JOIN contacts c ON c.id = m.contact_id WHERE c.email LIKE 'bench%@bench.test'`);
  await client.query(`
    INSERT INTO emails (to_address, subject, text_body, template, status, sent_at, created_at)
    SELECT u.email, 'Your monthly summary', 'Hello', 'bench', 'Sent', now() - (u.id || ' minutes')::interval, now() - (u.id || ' minutes')::interval
      FROM users u WHERE u.email LIKE 'bench%@bench.test'`);

  // The plan: sample g's account (the large one first, then round-robin over every other account) and physician.
  const total = sizes.samples + sizes.importRows;
  await client.query(`
    CREATE TEMP TABLE bench_plan AS
    WITH spread AS (SELECT array_agg(id ORDER BY id) AS ids FROM accounts WHERE id <> $1),
         doctor AS (SELECT DISTINCT ON (account_id) account_id, id FROM physicians ORDER BY account_id, id)
    SELECT g, a.account_id, d.id AS physician_id, a.account_id = $4 AS research
      FROM generate_series(1, $3::int) g
      CROSS JOIN spread
      CROSS JOIN LATERAL (SELECT CASE WHEN g <= $2 OR g > $5 THEN $1::bigint ELSE spread.ids[1 + (g - $2 - 1) % cardinality(spread.ids)] END AS account_id) a
      LEFT JOIN doctor d ON d.account_id = a.account_id`,
  [largeAccountId, sizes.large, total, researchAccountId, sizes.samples]);

  const base = async (table: string) => Number((await one(`SELECT coalesce(max(id), 0) + 1000 AS n FROM ${table}`)).n);
  const [p0, o0, s0, t0] = [await base('patients'), await base('orders'), await base('samples'), await base('tests')];
  // The samples arrive evenly over the last two years, newest first (a million: 1,370 a day, a large
  // reference lab's pace), so a 12-week figure holds 12 weeks of them, not the whole database.
  const spacing = `${((SPAN_DAYS * 86_400) / sizes.samples).toFixed(3)} seconds`;
  await client.query(`
    INSERT INTO patients (id, account_id, first_name, last_name, date_of_birth, sex, study_id)
    SELECT $1 + g, account_id, ($2::text[])[1 + g % cardinality($2::text[])], ($3::text[])[1 + (g / cardinality($2::text[])) % cardinality($3::text[])],
           DATE '1950-01-01' + (g % 9000), 'M', CASE WHEN research THEN 'BN-' || g END
      FROM bench_plan`, [p0, BENCH_FIRST_NAMES, BENCH_LAST_NAMES]);
  await client.query(`
    INSERT INTO orders (id, order_number, account_id, patient_id, physician_id, origin, portal, research_project_id, created_at)
    SELECT $1 + g, 'RB_' || lpad(g::text, 9, '0'), account_id, $2 + g, physician_id,
           CASE WHEN NOT research AND g % 10 = 0 AND g <= $4 THEN 'Patient Ordered' ELSE 'Provider Ordered' END,
           CASE WHEN research THEN 'Research Portal' WHEN g % 10 = 0 AND g <= $4 THEN 'Patient Portal' ELSE 'Clinical Portal' END,
           CASE WHEN research THEN $3::bigint END,
           now() - g * $5::interval
      FROM bench_plan`, [o0, p0, projectId, sizes.samples, spacing]);
  await client.query(`
    INSERT INTO samples (id, barcode, sample_type, status, account_id, patient_id, order_id, created_at)
    SELECT $1 + g, CASE WHEN g > $4 THEN '61' ELSE '62' END || lpad(g::text, 12, '0'), 'Buccal Swab',
           CASE WHEN g > $4 THEN 'In Queue' ELSE ($5::text[])[1 + g % 7] END,
           account_id, $2 + g, $3 + g, now() - g * $6::interval
      FROM bench_plan`, [s0, p0, o0, sizes.samples, STATUSES, spacing]);
  await client.query(`
    INSERT INTO tests (id, order_id, sample_id, name, parent_type)
    SELECT $1 + g, $2 + g, $3 + g, 'PROSTOX ultra', 'PROSTOX' FROM bench_plan`, [t0, o0, s0]);
  await client.query(`
    INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at)
    SELECT s.id, 'In Testing', 'Resulted', 'system', s.created_at + interval '3 days'
      FROM samples s WHERE s.id > $1 AND s.status IN ('Resulted', 'Completed')`, [s0]);
  // The steps before and after (issue 30's turnaround): shipped, received (8 to 47 hours later, so
  // the dashboard's percentiles sort real spreads) and, for Completed samples, released.
  await client.query(`
    INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at)
    SELECT s.id, 'Pending Shipment', 'In Transit', 'system', s.created_at + interval '1 hour'
      FROM samples s WHERE s.id > $1 AND s.barcode LIKE '62%' AND s.status IN ('In Transit', 'In Queue', 'In Testing', 'Resulted', 'Completed')`, [s0]);
  await client.query(`
    INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at)
    SELECT s.id, 'In Transit', 'In Queue', 'lab', s.created_at + (8 + s.id % 40) * interval '1 hour'
      FROM samples s WHERE s.id > $1 AND s.barcode LIKE '62%' AND s.status IN ('In Queue', 'In Testing', 'Resulted', 'Completed')`, [s0]);
  await client.query(`
    INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at)
    SELECT s.id, 'Resulted', 'Completed', 'system', s.created_at + interval '3 days' + (s.id % 12) * interval '1 hour'
      FROM samples s WHERE s.id > $1 AND s.status = 'Completed'`, [s0]);
  await client.query(`
    INSERT INTO test_results (test_id, version, value, status, entered_by_user_id, created_at)
    SELECT t.id, 1, 'High Risk', 'In Review', $2, s.created_at + interval '2 days'
      FROM samples s JOIN tests t ON t.sample_id = s.id WHERE s.id > $1 AND s.status = 'In Testing'`, [s0, labUserId]);
  // A resulted sample's result was released by a second lab user: what the completed list and the FHIR API read.
  await client.query(`
    INSERT INTO test_results (test_id, version, value, status, entered_by_user_id, reviewed_by_user_id, reviewed_at, created_at)
    SELECT t.id, 1, CASE WHEN s.id % 3 = 0 THEN 'High Risk' ELSE 'Low Risk' END, 'Released', $2,
           (SELECT id FROM users WHERE kind = 'lab' AND id <> $2 ORDER BY id LIMIT 1), s.created_at + interval '3 days', s.created_at + interval '2 days'
      FROM samples s JOIN tests t ON t.sample_id = s.id WHERE s.id > $1 AND s.status IN ('Resulted', 'Completed')`, [s0, labUserId]);
  await client.query(`
    WITH kit AS (SELECT id, account_id, created_at, row_number() OVER (ORDER BY id) AS n FROM samples WHERE id > $1 AND status = 'Pending Shipment' AND id % 2 = 0),
         sh AS (INSERT INTO shipments (account_id, created_at) SELECT account_id, created_at FROM kit ORDER BY n RETURNING id, account_id, created_at)
    INSERT INTO shipment_items (shipment_id, sample_id, kind)
    SELECT sh.id, kit.id, 'Test' FROM sh JOIN kit ON kit.account_id = sh.account_id AND kit.created_at = sh.created_at`, [s0]);
  for (const [seq, table] of [['patients_id_seq', 'patients'], ['orders_id_seq', 'orders'], ['samples_id_seq', 'samples'], ['tests_id_seq', 'tests']]) {
    await client.query(`SELECT setval('${seq}', (SELECT max(id) FROM ${table}))`);
  }
  await client.query('DROP TABLE bench_plan');
  const range = async (sql: string): Promise<[number, number]> => {
    const r = await one(sql);
    return [Number(r.lo), Number(r.hi)];
  };
  const audit = !sizes.auditRows ? { rows: 0, seconds: 0 } : await fillAuditYear(client, {
    rows: sizes.auditRows,
    users: await range(`SELECT min(id) AS lo, max(id) AS hi FROM users`),
    samples: [s0 + 1, s0 + total],
    accounts: await range(`SELECT min(id) AS lo, max(id) AS hi FROM accounts`),
  });
  // Every table but the audit table's past months, which a lab's database holds long vacuumed and
  // frozen and which nothing the bench measures reads: vacuuming their gigabytes would only make
  // the fill slower. Their autovacuum is off for the same reason (it would otherwise start on each
  // month during the measurements); the current month is vacuumed like every other table.
  const { rows: pastMonths } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_events'::regclass AND c.relname < 'audit_events_' || to_char(now() AT TIME ZONE 'UTC', 'YYYY_MM') AND c.relname <> 'audit_events_default'`);
  for (const { name } of pastMonths) await client.query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
  const { rows: vacuumed } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'm') AND NOT (c.relname = ANY($1::text[]))`, [pastMonths.map((m) => m.name)]);
  await client.query(`VACUUM ANALYZE ${vacuumed.map((t) => `"${t.name}"`).join(', ')}`);
  await client.query('ANALYZE audit_events');
  // Write the fill's dirty pages out now: the checkpoint its gigabytes of WAL start otherwise spreads
  // its writes over the next minutes, into the first lists measured. Needs a superuser (PostgreSQL
  // 15; pg_checkpoint from 16): without one the bench goes on as before.
  await client.query('CHECKPOINT').catch(() => undefined);
  const { rows } = await client.query(`SELECT barcode FROM samples WHERE barcode LIKE '61%' AND id > $1 ORDER BY barcode`, [s0]);
  return { largeAccountId, typicalAccountId, researchAccountId, importBarcodes: rows.map((r) => r.barcode as string), generatedUsers: generated, audit };
}

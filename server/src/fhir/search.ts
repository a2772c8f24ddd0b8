/**
 * FHIR search of one resource type in the account: a `searchset` Bundle with the total, a self
 * link and, while there is more, a next link. Paging is by keyset (the `_cursor` of the next link
 * names where the page ended), so it is correct under paging whatever is added meanwhile, reads
 * only the page's rows, and a deep page costs what the first one does. Order: sample-derived
 * resources newest sample first (then test id), Patient and Practitioner by id.
 *
 * Every parameter not described in capability.ts is refused (badRequest naming it). A search of
 * patient data writes its audit row (action `fhir.searched`, the page's ids and the total) in
 * the statement that reads the page.
 */
import type { Bundle, BundleEntry, BundleLink, Resource } from '@medplum/fhirtypes';
import { LAB_CODE_SYSTEMS, labCodeSystemUrl, testsWithCode, type LabCodeSystemKey, type TestName } from '@platform/domain';
import { auditActor } from '../audit';
import { badRequest } from '../errors';
import {
  buildAccountOrganization, buildDiagnosticReport, buildLabOrganization, buildObservation, buildPatient, buildPractitioner, buildServiceRequest,
  buildSpecimen, type BuildContext, type PatientRow, type PhysicianRow, type ResultRow, type SampleRow, type TestRow,
} from './builders';
import { fhirResourceDescription, isFhirResourceType, type FhirResourceType } from './capability';
import { fhirPage } from './page';
import {
  FHIR_SQL_CONSTANTS, PATIENT_COLUMNS, PATIENT_SCOPE, PHYSICIAN_COLUMNS, RELEASED_JOIN, RESULT_COLUMNS, RESULT_STATUS_SQL, SAMPLE_COLUMNS,
  SAMPLE_FROM, SAMPLE_SCOPE, SERVICE_REQUEST_STATUS_SQL, SERVICE_REQUEST_UPDATED_SQL, SPECIMEN_STATUS_SQL, TEST_COLUMNS, TEST_JOIN, accountRow,
} from './queries';
import { AUDIT_ENTITY, buildContextOf, type FhirCtx, type FhirScope } from './read';
import {
  dateConditions, decodeCursor, DEFAULT_COUNT, encodeCursor, IGNORED_PARAMS, invalid, numericId, orValues, parseCount, parseToken, referenceId, type Cursor,
} from './search-params';
import { identifierSystems, LAB_CODE_SYSTEM_IDS, labCodeSystem, NPI_SYSTEM, systemKeyOf } from './systems';

/** The statuses a search may name, per type (FHIR's value sets; only some are ever produced). */
const STATUS_CODES: Partial<Record<FhirResourceType, readonly string[]>> = {
  DiagnosticReport: ['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'],
  Observation: ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'],
  ServiceRequest: ['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown'],
  Specimen: ['available', 'unavailable', 'unsatisfactory', 'entered-in-error'],
};

const GENDER_CODES: Record<string, string> = { male: 'M', female: 'F', other: 'O', unknown: 'U' };

/** The WHERE conditions of a search and their values, named as they are added. */
class Conditions {
  readonly sql: string[] = [];
  readonly values: Record<string, unknown> = {};
  /** Plan the search for its values (see FhirPageQuery.adHoc). */
  adHoc = false;
  private n = 0;
  value(v: unknown): string {
    const name = `f${this.n++}`;
    this.values[name] = v;
    return `:${name}`;
  }
  add(sql: string): void {
    this.sql.push(sql);
  }
  /** `column IN (…)`, or nothing matches when no value can. */
  anyOf(column: string, values: unknown[]): void {
    this.add(values.length ? `${column} IN (${this.value(values)})` : 'false');
  }
}

function likePrefix(value: string): string {
  return `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface Parsed {
  count: number;
  cursor: Cursor | null;
  includes: Set<string>;
  withTotal: boolean;
  /** The search parameters given (names only: the audit never records their values). */
  names: string[];
}

function parseCommon(type: FhirResourceType, params: URLSearchParams): Parsed {
  const described = fhirResourceDescription(type);
  const allowed = new Set([...described.searchParams.map((p) => p.name), ...(described.searchInclude.length ? ['_include'] : [])]);
  const names = [...new Set(params.keys())].sort();
  for (const name of names) {
    if (!allowed.has(name) && !IGNORED_PARAMS.has(name)) throw invalid(name, `not a supported search parameter of ${type}`);
  }
  for (const single of ['_count', '_cursor', '_total']) {
    if (params.getAll(single).length > 1) throw invalid(single, 'given more than once');
  }
  const total = params.get('_total');
  if (total !== null && !['none', 'estimate', 'accurate'].includes(total)) throw invalid('_total', 'none, estimate or accurate');
  const includes = new Set<string>();
  for (const raw of params.getAll('_include')) {
    // DiagnosticReport:result, optionally with its target type (DiagnosticReport:result:Observation).
    const [source, param, target] = raw.split(':');
    const name = `${source}:${param}`;
    const targets: Record<string, string> = { 'DiagnosticReport:result': 'Observation', 'DiagnosticReport:specimen': 'Specimen' };
    if (!described.searchInclude.includes(name) || (target !== undefined && target !== targets[name]) || raw.split(':').length > 3) {
      throw invalid('_include', `"${raw}" is not supported (use ${described.searchInclude.join(' or ')})`);
    }
    includes.add(name);
  }
  const countRaw = params.get('_count');
  const cursorRaw = params.get('_cursor');
  return {
    count: countRaw === null ? DEFAULT_COUNT : parseCount(countRaw),
    cursor: cursorRaw === null ? null : decodeCursor(cursorRaw),
    includes,
    withTotal: total !== 'none',
    names: names.filter((n) => !IGNORED_PARAMS.has(n) && n !== '_cursor' && n !== '_count'),
  };
}

/** Each occurrence's comma-separated values, per occurrence (occurrences AND, values OR). */
const occurrences = (params: URLSearchParams, name: string) => params.getAll(name).map(orValues).filter((v) => v.length);

function dateFilter(c: Conditions, params: URLSearchParams, name: string, column: string): void {
  for (const raw of params.getAll(name)) {
    for (const cond of dateConditions(name, raw)) c.add(`${column} ${cond.op} CAST(${c.value(cond.at.toISOString())} AS timestamptz)`);
  }
}

function idFilter(c: Conditions, params: URLSearchParams, column: string): void {
  for (const values of occurrences(params, '_id')) c.anyOf(column, values.map(numericId).filter((v): v is number => v !== null));
}

function referenceFilter(c: Conditions, params: URLSearchParams, name: string, target: string, column: string): void {
  for (const values of occurrences(params, name)) c.anyOf(column, values.map((v) => referenceId(v, target)).filter((v): v is number => v !== null));
}

function statusFilter(c: Conditions, params: URLSearchParams, type: FhirResourceType, sql: string): void {
  for (const values of occurrences(params, 'status')) {
    const codes = values.map((v) => parseToken(v).code);
    const unknown = codes.find((code) => !STATUS_CODES[type]!.includes(code));
    if (unknown !== undefined) throw invalid('status', `"${unknown}" is not a ${type} status (${STATUS_CODES[type]!.join(', ')})`);
    c.anyOf(sql, codes);
  }
}

function codeFilter(c: Conditions, params: URLSearchParams, publicUrl: string): void {
  for (const values of occurrences(params, 'code')) {
    const names = new Set<TestName>();
    for (const v of values) {
      const { system, code } = parseToken(v);
      if (system === '') continue; // `|code`: a code without a system, which none of ours is
      const key = system === undefined ? null : systemKeyOf(system, publicUrl);
      if (key === undefined) continue;
      for (const name of testsWithCode(code, key)) names.add(name);
    }
    c.anyOf('t.name', [...names]);
  }
}

/** Sample barcodes and order numbers (`kinds` says which the type's identifier holds). */
function identifierFilter(c: Conditions, params: URLSearchParams, publicUrl: string, kinds: ('barcode' | 'orderNumber')[]): void {
  const systems = identifierSystems(publicUrl);
  for (const values of occurrences(params, 'identifier')) {
    const barcodes: string[] = [];
    const orderNumbers: string[] = [];
    for (const v of values) {
      const { system, code } = parseToken(v);
      if (kinds.includes('barcode') && (system === undefined || system === systems.barcode)) barcodes.push(code);
      if (kinds.includes('orderNumber') && (system === undefined || system === systems.orderNumber)) orderNumbers.push(code);
    }
    if (!barcodes.length && !orderNumbers.length) {
      c.add('false');
      continue;
    }
    const parts = [
      ...(barcodes.length ? [`SELECT si.id FROM samples si WHERE si.barcode IN (${c.value(barcodes)})`] : []),
      ...(orderNumbers.length ? [`SELECT si.id FROM samples si JOIN orders oi ON oi.id = si.order_id WHERE oi.order_number IN (${c.value(orderNumbers)})`] : []),
    ];
    c.add(`s.id IN (${parts.join(' UNION ALL ')})`);
  }
}

function stringFilter(c: Conditions, params: URLSearchParams, name: string, columns: string[]): void {
  for (const values of occurrences(params, name)) {
    const ors = values.flatMap((v) => columns.map((col) => `lower(${col}) LIKE ${c.value(likePrefix(v))}`));
    c.add(`(${ors.join(' OR ')})`);
  }
}

interface Page<R> {
  rows: R[];
  total: number | undefined;
  next: Cursor | null;
}

/**
 * The sample-derived search. The page's samples are picked first, newest first from the account's
 * index (samples_account_newest_idx) with a LIMIT, each kept when one of its tests (`testLevel`)
 * matches; only those samples' rows are then joined and sorted (by test id within a sample). So a
 * page reads about a page of samples whatever the account's size or PostgreSQL's estimate of it.
 * The cursor names the last row: its sample again for the tests after it, then the older samples.
 */
/**
 * The account, written into the page's statement as a literal: one plan per account and search
 * shape. As a parameter the generic plan assumes a hundred rows an account and, for the large
 * account, hash-joins and sorts all its samples (150 ms against 0.3 ms walking its newest-first
 * index: docs/performance.md, issue 27).
 */
const accountConstant = (scope: FhirScope) => ({ accountId: scope.accountId });

async function samplePage<R extends SampleRow & { sample_key: string; test_id?: number }>(
  ctx: FhirCtx, scope: FhirScope, type: FhirResourceType, p: Parsed, c: Conditions,
  q: { columns: string; resultJoin: string; testLevel: boolean; idColumn: string },
): Promise<Page<R>> {
  const limit = p.count === 0 ? 0 : p.count + 1;
  const cursor = p.cursor;
  if (cursor && !cursor.at) throw invalid('_cursor', 'not a cursor of this search (follow the Bundle\'s next link)');
  const cursorValues: Record<string, unknown> = cursor ? { cursorAt: cursor.at, cursorId: cursor.id, ...(q.testLevel ? { cursorTest: cursor.test ?? 0 } : {}) } : {};
  const conditions = c.sql.length ? c.sql.join(' AND ') : 'true';
  const joins = q.testLevel ? `${TEST_JOIN} ${q.resultJoin}` : '';
  let select: string;
  if (!q.testLevel) {
    const after = cursor ? ' AND (s.created_at, s.id) < (CAST(:cursorAt AS timestamptz), :cursorId)' : '';
    select = `SELECT ${q.columns} ${SAMPLE_FROM} WHERE ${SAMPLE_SCOPE} AND ${conditions}${after} ORDER BY s.created_at DESC, s.id DESC LIMIT :limit`;
  } else {
    const after = cursor ? ' AND (s.created_at, s.id) <= (CAST(:cursorAt AS timestamptz), :cursorId)' : '';
    const afterTest = cursor ? ' AND (s.id <> :cursorId OR t.id > :cursorTest)' : '';
    const picked = `SELECT s.id FROM samples s JOIN orders o ON o.id = s.order_id JOIN patients p ON p.id = s.patient_id
       WHERE ${SAMPLE_SCOPE}${after}
         AND EXISTS (SELECT 1 FROM tests t ${q.resultJoin} WHERE t.sample_id = s.id AND t.name NOT IN (:processingSteps) AND ${conditions}${afterTest})
       ORDER BY s.created_at DESC, s.id DESC LIMIT :limit`;
    select = `SELECT ${q.columns}
       FROM (${picked}) picked JOIN samples s ON s.id = picked.id JOIN orders o ON o.id = s.order_id JOIN patients p ON p.id = s.patient_id ${joins}
      WHERE ${conditions}${afterTest}
      ORDER BY s.created_at DESC, s.id DESC, t.id LIMIT :limit`;
  }
  const { rows, total } = await fhirPage<R>(ctx.db, {
    select,
    fromWhere: p.withTotal ? `${SAMPLE_FROM} ${joins} WHERE ${SAMPLE_SCOPE} AND ${conditions}` : null,
    replacements: { ...c.values, ...cursorValues },
    cursorKeys: Object.keys(cursorValues),
    // The LIMIT written into the statement: as a parameter, PostgreSQL's generic plan assumes a
    // tenth of the search is read and may choose to hash and sort the account instead of walking its index.
    constants: { ...FHIR_SQL_CONSTANTS, ...accountConstant(scope), limit },
    audit: searchAudit(scope, type, p),
    idColumn: q.idColumn,
    shownRows: p.count,
    adHoc: c.adHoc,
  });
  const shown = rows.slice(0, p.count);
  const last = shown[shown.length - 1];
  const next = rows.length > p.count && last ? { at: last.sample_key, id: last.sample_id, ...(q.testLevel ? { test: last.test_id } : {}) } : null;
  return { rows: shown, total, next };
}

/** A page of rows ordered by one id column (Patient, Practitioner). */
async function idPage<R extends { id: number }>(
  ctx: FhirCtx, scope: FhirScope, type: FhirResourceType, p: Parsed, c: Conditions, q: { columns: string; from: string; scope: string; idColumn: string; audited: boolean },
): Promise<Page<R>> {
  const where = [q.scope, ...c.sql].join(' AND ');
  const cursorValues: Record<string, unknown> = p.cursor ? { cursorId: p.cursor.id } : {};
  const after = p.cursor ? ` AND ${q.idColumn} > :cursorId` : '';
  const { rows, total } = await fhirPage<R>(ctx.db, {
    select: `SELECT ${q.columns} ${q.from} WHERE ${where}${after} ORDER BY ${q.idColumn} LIMIT :limit`,
    fromWhere: p.withTotal ? `${q.from} WHERE ${where}` : null,
    replacements: { ...c.values, ...cursorValues },
    cursorKeys: Object.keys(cursorValues),
    constants: { ...FHIR_SQL_CONSTANTS, ...accountConstant(scope), limit: p.count === 0 ? 0 : p.count + 1 },
    audit: q.audited ? searchAudit(scope, type, p) : null,
    idColumn: 'id',
    shownRows: p.count,
  });
  const shown = rows.slice(0, p.count);
  const last = shown[shown.length - 1];
  return { rows: shown, total, next: rows.length > p.count && last ? { id: last.id } : null };
}

function searchAudit(scope: FhirScope, type: FhirResourceType, p: Parsed) {
  const entityKind = AUDIT_ENTITY[type];
  if (!entityKind) return null;
  return {
    ...auditActor(scope.caller), action: 'fhir.searched', entityKind,
    details: { accountId: scope.accountId, resourceType: type, params: p.names, include: [...p.includes], cursor: p.cursor !== null },
  };
}

interface Answer {
  matches: Resource[];
  includes: Resource[];
  total: number | undefined;
  next: Cursor | null;
}

async function searchSampleDerived(ctx: FhirCtx, scope: FhirScope, type: 'Specimen' | 'ServiceRequest' | 'DiagnosticReport' | 'Observation', params: URLSearchParams, p: Parsed, b: BuildContext): Promise<Answer> {
  const c = new Conditions();
  const testLevel = type !== 'Specimen';
  const results = type === 'DiagnosticReport' || type === 'Observation';
  idFilter(c, params, testLevel ? 't.id' : 's.id');
  referenceFilter(c, params, 'patient', 'Patient', 's.patient_id');
  referenceFilter(c, params, 'subject', 'Patient', 's.patient_id');
  if (type === 'Specimen') identifierFilter(c, params, b.publicUrl, ['barcode']);
  if (type === 'ServiceRequest' || type === 'DiagnosticReport') identifierFilter(c, params, b.publicUrl, ['barcode', 'orderNumber']);
  if (testLevel) codeFilter(c, params, b.publicUrl);
  statusFilter(c, params, type, results ? RESULT_STATUS_SQL : type === 'ServiceRequest' ? SERVICE_REQUEST_STATUS_SQL : SPECIMEN_STATUS_SQL);
  if (results) {
    dateFilter(c, params, 'date', 's.collected_at');
    dateFilter(c, params, 'issued', 'r.reviewed_at');
    dateFilter(c, params, '_lastUpdated', 'r.reviewed_at');
    // "Released since": only the value says whether to read the few released since (test_results_released_at_idx) or walk the account.
    c.adHoc = params.has('issued') || params.has('_lastUpdated');
  } else if (type === 'ServiceRequest') {
    dateFilter(c, params, 'authored', 'o.created_at');
    dateFilter(c, params, '_lastUpdated', SERVICE_REQUEST_UPDATED_SQL);
    referenceFilter(c, params, 'requester', 'Practitioner', 'o.physician_id');
    referenceFilter(c, params, 'specimen', 'Specimen', 's.id');
  } else {
    dateFilter(c, params, 'collected', 's.collected_at');
    dateFilter(c, params, '_lastUpdated', 's.updated_at');
  }
  if (type === 'Specimen') {
    const page = await samplePage<SampleRow & { sample_key: string }>(ctx, scope, type, p, c, { columns: SAMPLE_COLUMNS, resultJoin: '', testLevel: false, idColumn: 'sample_id' });
    return { matches: page.rows.map((r) => buildSpecimen(r, b)), includes: [], total: page.total, next: page.next };
  }
  if (type === 'ServiceRequest') {
    const page = await samplePage<TestRow & { sample_key: string }>(ctx, scope, type, p, c, { columns: TEST_COLUMNS, resultJoin: '', testLevel: true, idColumn: 'test_id' });
    return { matches: page.rows.map((r) => buildServiceRequest(r, b)), includes: [], total: page.total, next: page.next };
  }
  const page = await samplePage<ResultRow & { sample_key: string }>(ctx, scope, type, p, c, { columns: RESULT_COLUMNS, resultJoin: RELEASED_JOIN, testLevel: true, idColumn: 'test_id' });
  if (type === 'Observation') return { matches: page.rows.map((r) => buildObservation(r, b)), includes: [], total: page.total, next: page.next };
  const includes: Resource[] = [];
  if (p.includes.has('DiagnosticReport:result')) includes.push(...page.rows.map((r) => buildObservation(r, b)));
  if (p.includes.has('DiagnosticReport:specimen')) {
    const seen = new Set<number>();
    for (const r of page.rows) if (!seen.has(r.sample_id) && seen.add(r.sample_id)) includes.push(buildSpecimen(r, b));
  }
  return { matches: page.rows.map((r) => buildDiagnosticReport(r, b)), includes, total: page.total, next: page.next };
}

async function searchPatients(ctx: FhirCtx, scope: FhirScope, params: URLSearchParams, p: Parsed, b: BuildContext): Promise<Answer> {
  const c = new Conditions();
  idFilter(c, params, 'p.id');
  for (const values of occurrences(params, 'identifier')) {
    // The medical record number carries no system: a token naming one matches nothing.
    c.anyOf('p.medical_record_number', values.map(parseToken).filter((t) => t.system === undefined || t.system === '').map((t) => t.code));
  }
  stringFilter(c, params, 'name', ['p.first_name', 'p.last_name']);
  stringFilter(c, params, 'family', ['p.last_name']);
  stringFilter(c, params, 'given', ['p.first_name']);
  dateFilter(c, params, 'birthdate', `(CAST(p.date_of_birth AS timestamp) AT TIME ZONE 'UTC')`);
  for (const values of occurrences(params, 'gender')) {
    const codes = values.map((v) => parseToken(v).code);
    const unknown = codes.find((g) => !(g in GENDER_CODES));
    if (unknown !== undefined) throw invalid('gender', `"${unknown}" is not male, female, other or unknown`);
    c.anyOf('p.sex', codes.map((g) => GENDER_CODES[g]));
  }
  dateFilter(c, params, '_lastUpdated', 'p.updated_at');
  const page = await idPage<PatientRow>(ctx, scope, 'Patient', p, c, { columns: PATIENT_COLUMNS, from: 'FROM patients p', scope: PATIENT_SCOPE, idColumn: 'p.id', audited: true });
  return { matches: page.rows.map((r) => buildPatient(r, b)), includes: [], total: page.total, next: page.next };
}

async function searchPractitioners(ctx: FhirCtx, scope: FhirScope, params: URLSearchParams, p: Parsed, b: BuildContext): Promise<Answer> {
  const c = new Conditions();
  idFilter(c, params, 'ph.id');
  for (const values of occurrences(params, 'identifier')) {
    c.anyOf('ph.npi', values.map(parseToken).filter((t) => t.system === undefined || t.system === NPI_SYSTEM).map((t) => t.code));
  }
  stringFilter(c, params, 'name', ['ph.first_name', 'ph.last_name']);
  const page = await idPage<PhysicianRow>(ctx, scope, 'Practitioner', p, c, { columns: PHYSICIAN_COLUMNS, from: 'FROM physicians ph', scope: 'ph.account_id = :accountId', idColumn: 'ph.id', audited: false });
  return { matches: page.rows.map((r) => buildPractitioner(r, b)), includes: [], total: page.total, next: page.next };
}

/** The two Organizations (the account, the lab) and the lab's CodeSystems: a handful, filtered in memory. */
async function searchFew(ctx: FhirCtx, scope: FhirScope, type: 'Organization' | 'CodeSystem', params: URLSearchParams, p: Parsed, b: BuildContext): Promise<Answer> {
  let all: Resource[];
  if (type === 'Organization') {
    const account = await accountRow(ctx, scope.accountId);
    all = [...(account ? [buildAccountOrganization(account, b)] : []), buildLabOrganization(b)];
  } else {
    all = (Object.keys(LAB_CODE_SYSTEMS) as LabCodeSystemKey[]).map((k) => labCodeSystem(k, b.publicUrl, b.lab.name));
    for (const values of occurrences(params, 'url')) {
      all = all.filter((r) => values.includes(labCodeSystemUrl(b.publicUrl, LAB_CODE_SYSTEM_IDS[r.id!])));
    }
  }
  for (const values of occurrences(params, '_id')) all = all.filter((r) => values.includes(r.id!));
  const start = p.cursor ? p.cursor.id : 0;
  const matches = all.slice(start, start + p.count);
  return { matches, includes: [], total: all.length, next: start + p.count < all.length && p.count > 0 ? { id: start + p.count } : null };
}

/**
 * GET [type]?params: a searchset Bundle. `baseUrl` is the FHIR base the client used
 * (https://host/fhir/R4): the entries' fullUrl and the links are under it. Throws the server's
 * badRequest (Invalid) for an unknown type or a parameter, value or cursor it cannot answer.
 */
export async function searchFhirResources(ctx: FhirCtx, scope: FhirScope, type: string, params: URLSearchParams, baseUrl: string): Promise<Bundle> {
  if (!isFhirResourceType(type)) throw badRequest(`Unknown resource type ${type}`, [{ field: 'type', message: `not one of the served resource types` }]);
  const p = parseCommon(type, params);
  const b = buildContextOf(ctx);
  const answer = type === 'Patient' ? await searchPatients(ctx, scope, params, p, b)
    : type === 'Practitioner' ? await searchPractitioners(ctx, scope, params, p, b)
      : type === 'Organization' || type === 'CodeSystem' ? await searchFew(ctx, scope, type, params, p, b)
        : await searchSampleDerived(ctx, scope, type, params, p, b);
  const base = baseUrl.replace(/\/+$/, '');
  const link: BundleLink[] = [{ relation: 'self', url: `${base}/${type}${params.toString() ? `?${params.toString()}` : ''}` }];
  if (answer.next) {
    const next = new URLSearchParams(params);
    next.delete('_cursor');
    next.set('_cursor', encodeCursor(answer.next));
    link.push({ relation: 'next', url: `${base}/${type}?${next.toString()}` });
  }
  const entry = (resource: Resource, mode: 'match' | 'include'): BundleEntry => ({ fullUrl: `${base}/${resource.resourceType}/${resource.id}`, resource, search: { mode } });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(answer.total !== undefined ? { total: answer.total } : {}),
    link,
    entry: [...answer.matches.map((r) => entry(r, 'match')), ...answer.includes.map((r) => entry(r, 'include'))],
  };
}

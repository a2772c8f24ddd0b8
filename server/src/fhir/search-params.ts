/**
 * Reading a FHIR search's parameters: tokens (`[system|]code`), references (`Patient/12` or `12`),
 * dates with the prefixes eq / gt / ge / lt / le over the value's precision, _count and the paging
 * cursor. Every refusal is the server's badRequest naming the parameter.
 */
import { badRequest } from '../errors';

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 100;

/** Result parameters every type accepts and this server ignores (formatting is the HTTP layer's). */
export const IGNORED_PARAMS = new Set(['_format', '_pretty', '_total']);

export const invalid = (param: string, why: string) => badRequest(`Invalid search parameter ${param}: ${why}`, [{ field: param, message: why }]);

/** The values of a parameter: each occurrence split on unescaped commas (OR), occurrences ANDed. */
export function orValues(raw: string): string[] {
  return raw.split(/(?<!\\),/).map((v) => v.replace(/\\,/g, ',').trim()).filter((v) => v !== '');
}

/** A token `[system|]code`: system undefined when no `|`, '' for `|code`. */
export function parseToken(value: string): { system: string | undefined; code: string } {
  const bar = value.indexOf('|');
  return bar < 0 ? { system: undefined, code: value } : { system: value.slice(0, bar), code: value.slice(bar + 1) };
}

/** A reference parameter to `type`: its numeric id, or null when it names another type or an id that cannot exist here. */
export function referenceId(value: string, type: string): number | null {
  const v = value.replace(/\/_history\/.*$/, '');
  const m = new RegExp(`^(?:.*/)?(?:${type}/)?(\\d{1,15})$`).exec(v);
  if (!m) return null;
  const slash = v.lastIndexOf('/');
  if (slash >= 0 && !v.slice(0, slash).endsWith(type)) return null;
  return Number(m[1]);
}

/** A positive integer id (`_id`, an id in a path), or null. */
export function numericId(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export type DatePrefix = 'eq' | 'gt' | 'ge' | 'lt' | 'le';
const PREFIXES: DatePrefix[] = ['eq', 'gt', 'ge', 'lt', 'le'];

/** The SQL condition of a date comparison (instants, half-open range of the value's precision). */
export interface DateCondition {
  op: '>=' | '<';
  at: Date;
}

const DATE_VALUE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** The range [start, end) a date value stands for, at its precision (times without a zone are UTC). */
export function dateRange(param: string, value: string): { start: Date; end: Date } {
  const m = DATE_VALUE.exec(value);
  if (!m) throw invalid(param, `"${value}" is not a FHIR date (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][Z|±hh:mm])`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = mo ? Number(mo) - 1 : 0;
  const day = d ? Number(d) : 1;
  if (month > 11 || day < 1 || day > 31 || (h && (Number(h) > 23 || Number(mi) > 59 || (s && Number(s) > 59)))) {
    throw invalid(param, `"${value}" is not a valid date`);
  }
  const offsetMin = !zone || zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const utc = (yy: number, mm: number, dd: number, hh = 0, mn = 0, ss = 0, ms = 0) => new Date(Date.UTC(yy, mm, dd, hh, mn, ss, ms) - offsetMin * 60_000);
  if (!mo) return { start: utc(year, 0, 1), end: utc(year + 1, 0, 1) };
  if (!d) return { start: utc(year, month, 1), end: utc(year, month + 1, 1) };
  if (!h) return { start: utc(year, month, day), end: utc(year, month, day + 1) };
  if (!s) return { start: utc(year, month, day, Number(h), Number(mi)), end: utc(year, month, day, Number(h), Number(mi) + 1) };
  if (!frac) return { start: utc(year, month, day, Number(h), Number(mi), Number(s)), end: utc(year, month, day, Number(h), Number(mi), Number(s) + 1) };
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const start = utc(year, month, day, Number(h), Number(mi), Number(s), ms);
  return { start, end: new Date(start.getTime() + 1) };
}

/** The conditions of one date parameter occurrence (`ge2026-10-01`): ANDed on the column. */
export function dateConditions(param: string, raw: string): DateCondition[] {
  const values = orValues(raw);
  if (values.length !== 1) throw invalid(param, 'one date per occurrence (repeat the parameter to give a range)');
  const value = values[0];
  const prefix = PREFIXES.find((p) => value.startsWith(p)) ?? null;
  if (!prefix && /^[a-z]{2}/.test(value)) throw invalid(param, `the prefix "${value.slice(0, 2)}" is not supported (use eq, gt, ge, lt or le)`);
  const { start, end } = dateRange(param, prefix ? value.slice(2) : value);
  switch (prefix ?? 'eq') {
    case 'eq': return [{ op: '>=', at: start }, { op: '<', at: end }];
    case 'gt': return [{ op: '>=', at: end }];
    case 'ge': return [{ op: '>=', at: start }];
    case 'lt': return [{ op: '<', at: start }];
    case 'le': return [{ op: '<', at: end }];
  }
}

export function parseCount(raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) throw invalid('_count', `"${raw}" is not a whole number`);
  return Math.min(Number(raw), MAX_COUNT);
}

/** The paging cursor: where the previous page ended (opaque to the client). */
export interface Cursor {
  /** The last row's sample created_at in UTC, exact to the microsecond (2026-11-28T08:00:00.123456Z). */
  at?: string;
  /** The last row's sample id (sample-ordered types) or resource id (Patient, Practitioner). */
  id: number;
  /** The last row's test id within its sample (test-ordered types). */
  test?: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (typeof c !== 'object' || c === null || !Number.isSafeInteger(c.id)) throw new Error('shape');
    if (c.at !== undefined && (typeof c.at !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(c.at))) throw new Error('at');
    if (c.test !== undefined && !Number.isSafeInteger(c.test)) throw new Error('test');
    return c;
  } catch {
    throw invalid('_cursor', 'not a cursor of this server (follow the Bundle\'s next link)');
  }
}

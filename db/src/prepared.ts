/**
 * A statement run as a named prepared statement on the database's prepared pool (Db.preparedPool),
 * for the hot reads (the lists every user pages through): PostgreSQL plans it once per connection and
 * reuses that generic plan, where an ad-hoc query is planned on every call (planning a list's joins cost
 * about four times its execution). The SQL is written with Sequelize's `:name` replacements: each
 * of `values` becomes a `$n` parameter (an array one parameter per element, as Sequelize expands
 * it), so the statement's text, and its plan, are the same whatever the caller's values; each of
 * `constants` (the rule's enumerations: statuses, document types) is written into the text as a
 * literal, so the one plan kept for every caller is chosen knowing them (a parameter in
 * `status <> $1` hides how selective it is, and the generic plan can be far worse).
 */
import { createHash } from 'node:crypto';
import type { Db } from './connect';

/** `:name` outside quoted literals, not a `::cast`. */
const NAMED = /(?<![:\w]):([A-Za-z_]\w*)/g;

/** A `$n` parameter of a positional statement: the replacement it takes, and the element when that is an array. */
export interface Slot {
  name: string;
  element?: number;
}

/**
 * The SQL with `$n` parameters, and which replacement each one takes, in order. It depends on the
 * replacements' names and array lengths only, never on their values.
 */
export function toPositional(sql: string, replacements: Record<string, unknown>, constants: Record<string, unknown> = {}, escape: (v: unknown) => string = String): { text: string; slots: Slot[] } {
  const slots: Slot[] = [];
  const numbered = new Map<string, string>();
  const param = (name: string): string => {
    if (name in constants) {
      const value = constants[name];
      if (value === undefined) throw new Error(`no value for :${name}`);
      return Array.isArray(value) ? (value.length ? value.map(escape).join(', ') : 'NULL') : escape(value);
    }
    if (!(name in replacements) || replacements[name] === undefined) throw new Error(`no value for :${name}`);
    const known = numbered.get(name);
    if (known) return known;
    const value = replacements[name];
    const placeholders = Array.isArray(value)
      ? value.length ? value.map((_v, element) => `$${slots.push({ name, element })}`).join(', ') : 'NULL'
      : `$${slots.push({ name })}`;
    numbered.set(name, placeholders);
    return placeholders;
  };
  // Quoted literals ('…', with '' inside) are left as they are.
  const text = sql.split(/('(?:[^']|'')*')/).map((part, i) => (i % 2 ? part : part.replace(NAMED, (_m, name: string) => param(name)))).join('');
  return { text, slots };
}

/** The parameters' values of a call, in the statement's order. */
export const slotValues = (slots: readonly Slot[], replacements: Record<string, unknown>): unknown[] =>
  slots.map(({ name, element }) => (element === undefined ? replacements[name] : (replacements[name] as unknown[])[element]));

/** A statement's positional text, name and parameters, by its SQL, constants and the shape of its values (not the values themselves). */
const statements = new Map<string, { text: string; name: string; slots: Slot[] }>();
const STATEMENTS_REMEMBERED = 1_000;

/**
 * The positional form of a statement, worked out once per shape: a list's statement is the same on
 * every request but for its values, and rewriting and hashing its text (a few kilobytes) on each one
 * cost more than the list's own row mapping.
 */
function statementFor(db: Db, sql: string, replacements: Record<string, unknown>, constants: Record<string, unknown>) {
  const shape = Object.entries(replacements).map(([k, v]) => (v === undefined ? `${k}?` : Array.isArray(v) ? `${k}[${v.length}]` : k)).join(',');
  const key = `${sql}\u0000${JSON.stringify(constants)}\u0000${shape}`;
  let known = statements.get(key);
  if (!known) {
    const { text, slots } = toPositional(sql, replacements, constants, (v) => db.sequelize.escape(v as string));
    known = { text, slots, name: `p_${createHash('sha1').update(text).digest('hex').slice(0, 24)}` };
    if (statements.size >= STATEMENTS_REMEMBERED) statements.clear();
    statements.set(key, known);
  }
  return known;
}

export async function queryPrepared<R>(db: Db, sql: string, replacements: Record<string, unknown>, constants: Record<string, unknown> = {}): Promise<R[]> {
  const { text, name, slots } = statementFor(db, sql, replacements, constants);
  return (await db.preparedPool().query({ name, text, values: slotValues(slots, replacements) })).rows as R[];
}

/**
 * Small helpers for the raw SQL of migrations: quoting of literals and the CHECK lists of
 * enumerated columns, built from the value lists of `@platform/domain` so no string is copied.
 */

/** A SQL string literal ('' doubles a quote). */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `column IN ('a', 'b', …)`: the body of a CHECK on an enumerated column. */
export function oneOf(column: string, values: readonly string[]): string {
  if (values.length === 0) throw new Error(`oneOf(${column}): empty value list`);
  return `${column} IN (${values.map(literal).join(', ')})`;
}

/** A quoted identifier, for names that come from code (database names, for example). */
export function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(name)) throw new Error(`invalid SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** The two timestamp columns of every table whose rows change. */
export const TIMESTAMPS = `created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

/**
 * A patient's searchable words (first name, last name, email) as one text, for the patient search's
 * `ILIKE '%word%'` on each word: one trigram index over it (migration 20261126090000) finds the
 * patients having every word in one index scan, where an index per field took three scans a word
 * and a bitmap AND of ten-thousand-row bitmaps for a common name. The space between the fields is
 * never inside a searched word (words are split on spaces), so a word matches here exactly when it
 * matches one of the fields. `table`: the patients table's alias in a query, none in the index.
 */
export function patientSearchText(table?: string): string {
  const column = (name: string) => `coalesce(${table ? `${table}.` : ''}${name}, '')`;
  return `(${column('first_name')} || ' ' || ${column('last_name')} || ' ' || ${column('email')})`;
}

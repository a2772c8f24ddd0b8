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

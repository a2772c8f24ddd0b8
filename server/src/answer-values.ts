/** Small conversions every answer uses: instants as ISO strings, DATEONLY columns as YYYY-MM-DD. */

export const toIso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** 'YYYY-MM-DD' of a DATEONLY column (pg gives a string; be safe with Date). */
export function dataDate(value: string | Date | null | undefined): string | null {
  if (value == null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** A LIKE pattern that matches the text anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

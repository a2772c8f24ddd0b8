/**
 * Typed text and counts: the one rule about spaces around a typed, scanned or imported value,
 * new free-text options, and how counts read in messages. Pure functions, no I/O.
 */

/**
 * Null when a typed, scanned or imported value is present and has no space around it; otherwise
 * one sentence naming it by `label` (what is wrong; the caller adds where). Nothing is trimmed
 * silently anywhere: intake, storage plates, extraction files and result files all refuse
 * ' 41000000000001' with this rule.
 */
export function describeSpacingProblem(value: string, label: string): string | null {
  if (value.length === 0) return `${label} is required`;
  if (value.trim().length === 0) return `${label} is required (only spaces were entered)`;
  if (value !== value.trim()) return `${label} must not start or end with a space`;
  return null;
}

/** The longest free-text option a user may create. */
export const OPTION_MAX_LENGTH = 100;

export type NewOptionCheck = { ok: true; value: string } | { ok: false; error: string };

/** How options are compared: trimmed, inner whitespace collapsed, NFC, case-insensitive. */
function optionKey(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Checks a new free-text option (e.g. a new insurance plan or referral source typed into a select
 * box): refuses an empty or whitespace-only value, one longer than OPTION_MAX_LENGTH, and one that
 * already exists ignoring case and surrounding or repeated whitespace. On success returns the value
 * to store: trimmed (the caller shows it), inner text kept as typed.
 */
export function checkNewOption(value: string, existing: readonly string[]): NewOptionCheck {
  const trimmed = value.normalize('NFC').trim();
  if (trimmed.length === 0) return { ok: false, error: 'The new option must not be empty' };
  if (trimmed.length > OPTION_MAX_LENGTH) {
    return { ok: false, error: `The new option must be at most ${OPTION_MAX_LENGTH} characters long` };
  }
  const key = optionKey(trimmed);
  const duplicate = existing.find((option) => optionKey(option) === key);
  if (duplicate !== undefined) return { ok: false, error: `The option "${duplicate}" already exists` };
  return { ok: true, value: trimmed };
}

/** The whole-number format of counts in messages (10,000). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count with its noun, singular for one: "1 control", "3 controls", "1,204 samples". */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * The rule a new password meets, once: the api's passwordSchema enforces it and the SPA checks it
 * as the person types (plain values, no joi: the SPA imports this file).
 */

export const PASSWORD_MIN_LENGTH = 10;

export const PASSWORD_MAX_LENGTH = 200;

/** What a new password must contain besides its length. */
export const PASSWORD_MUST_CONTAIN = [
  { name: 'letter', pattern: /\p{L}/u },
  { name: 'digit', pattern: /\p{Nd}/u },
] as const;

export const PASSWORD_RULE_TEXT = `Use at least ${PASSWORD_MIN_LENGTH} characters, with at least one letter and one digit.`;

/** What is wrong with a new password, in the words a form shows, or null. Never repeats the password. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters`;
  const missing = PASSWORD_MUST_CONTAIN.find((c) => !c.pattern.test(password));
  return missing ? `Use at least one ${missing.name}` : null;
}

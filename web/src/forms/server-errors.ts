/**
 * The API answers a refused request with `{ error: { code, message, fields?: [{ field, message }] } }`
 * (api/src/http/error-handler.ts), read into an ApiError. This is the one place that maps those
 * field messages onto a form's fields, and says what a form shows when no field takes the error.
 */
import type { FormErrors } from '@mantine/form';
import { ApiError } from '../api/fetcher';

/**
 * Which form field a server field belongs to ('tests.0' → 'tests', say); undefined when none.
 * The default takes the server's path, or its first segment, when the form has such a field.
 */
export type FieldOf = (serverField: string) => string | undefined;

export function defaultFieldOf(formFields: readonly string[]): FieldOf {
  return (serverField) => {
    if (formFields.includes(serverField)) return serverField;
    const head = serverField.split('.')[0];
    return formFields.includes(head) ? head : undefined;
  };
}

/**
 * For forms with lists and groups (rows of accounts, a new patient's fields): the longest leading
 * part of the server's path ('physicians.1.npi', 'patient.email', 'accounts') that names a value
 * of the form, so a message lands on the very row and input it is about. `rename` first maps the
 * server's top-level names the form calls otherwise ('approvedPriceCents' → 'priceUsd', say).
 */
export function nestedFieldOf(getValues: () => object, rename: Record<string, string> = {}): FieldOf {
  return (serverField) => {
    const [head, ...rest] = serverField.split('.');
    const parts = [rename[head] ?? head, ...rest];
    let value: unknown = getValues();
    let found: string | undefined;
    for (let i = 0; i < parts.length; i += 1) {
      if (value === null || typeof value !== 'object' || !(parts[i] in value)) break;
      value = (value as Record<string, unknown>)[parts[i]];
      found = parts.slice(0, i + 1).join('.');
    }
    return found;
  };
}

/** The server's field messages placed on form fields (several on one field join with '; '), and whether every one found a field. */
export function serverFieldErrors(error: unknown, fieldOf: FieldOf): { errors: FormErrors; allPlaced: boolean } {
  const errors: Record<string, string> = {};
  if (!(error instanceof ApiError) || error.fields.length === 0) return { errors, allPlaced: false };
  let allPlaced = true;
  for (const { field, message } of error.fields) {
    const target = fieldOf(field);
    if (!target) {
      allPlaced = false;
      continue;
    }
    errors[target] = errors[target] ? `${errors[target]}; ${message}` : message;
  }
  return { errors, allPlaced };
}

/** A form's one-line account of a failure: the server's own sentence for a refusal, else the error's message. */
export function formErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status > 0 && error.status < 500 && error.serverMessage) return error.serverMessage;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The server's sentence of a failed command (each field's when several are named), or a general one. */
export function commandError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.fields.length > 1) return error.fields.map((f) => f.message).join('\n');
    return error.serverMessage || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

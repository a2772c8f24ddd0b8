/**
 * What the application refuses, without HTTP: the api's error handler maps each class to a status
 * code; inside a job any of them fails the job at once (a refusal does not get better on retry).
 */
export interface FieldError {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  /** The machine-readable code the api sends with the message (each class has its default). */
  readonly code: string;
  constructor(message: string, readonly fields?: FieldError[], code?: string) {
    super(message);
    this.name = new.target.name;
    this.code = code ?? this.defaultCode();
  }
  protected abstract defaultCode(): string;
}

/** Something that does not exist, or that the caller may not know exists. */
export class NotFound extends DomainError {
  protected defaultCode() { return 'not_found'; }
}

/** A change the current state refuses (a status transition, a duplicate, something not ready). */
export class Conflict extends DomainError {
  protected defaultCode() { return 'conflict'; }
}

/** Known caller, not allowed. */
export class Forbidden extends DomainError {
  protected defaultCode() { return 'forbidden'; }
}

/** Input that breaks a rule; `fields` names the fields when there are any. */
export class Invalid extends DomainError {
  protected defaultCode() { return 'bad_request'; }
}

/** Something that existed but can no longer be used (a used, cancelled or expired single-use link). */
export class Gone extends DomainError {
  protected defaultCode() { return 'gone'; }
}

/** Something closed after too many attempts (a result link after ten wrong dates of birth). */
export class Locked extends DomainError {
  protected defaultCode() { return 'locked'; }
}

/** Well-formed input the rules refuse as a whole (an ineligible order, no approved financial assistance). */
export class Unprocessable extends DomainError {
  protected defaultCode() { return 'unprocessable'; }
}

/** Too many attempts from one caller: refused until `retryAfterSeconds` have passed (a 429 with Retry-After). */
export class TooManyAttempts extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
  protected defaultCode() { return 'too_many_attempts'; }
}

export const notFound = (message = 'Not found') => new NotFound(message);
export const gone = (message: string) => new Gone(message);
export const unprocessable = (message: string, fields?: FieldError[], code?: string) => new Unprocessable(message, fields, code);
export const conflict = (message: string, fields?: FieldError[]) => new Conflict(message, fields);
export const forbidden = (message = 'You do not have access to this') => new Forbidden(message);
export const badRequest = (message: string, fields?: FieldError[]) => new Invalid(message, fields);
export const validationFailed = (fields: FieldError[]) => new Invalid(fields.map((f) => f.message).join('; '), fields, 'validation_failed');

/**
 * Runs `work`; a unique violation of one of `constraints` (by constraint or unique index name)
 * becomes a 409 naming the field. The check a command makes first answers the common case; this
 * answers the race two requests run at the same moment.
 */
export async function conflictOnDuplicate<T>(work: () => Promise<T>, constraints: Record<string, FieldError>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const name = (err as { name?: string; parent?: { constraint?: string } }).parent?.constraint;
    const field = (err as Error).name === 'SequelizeUniqueConstraintError' && name ? constraints[name] : undefined;
    if (field) throw new Conflict(field.message, [field]);
    throw err;
  }
}

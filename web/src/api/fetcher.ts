/**
 * The one way the SPA talks to the API: same-origin cookies, JSON in and out, the CSRF token on
 * every state-changing request, and the API's error shape read into an ApiError.
 */
import type { FieldError } from '@platform/domain';

export const API_PREFIX = '/api';

/** What the API sends with every 4xx/5xx answer. */
interface ApiErrorBody {
  error?: { code?: string; message?: string; fields?: FieldError[] };
  requestId?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    /** The server's own sentence, for forms and mutations that show it. */
    readonly serverMessage: string,
    readonly fields: FieldError[] = [],
    readonly requestId?: string,
    readonly retryAfterSeconds?: number,
  ) {
    // Query failures show exactly this line (SPEC §8).
    super(status === 0 ? 'Could not reach the server. Check your connection and try again.' : `Request failed with status code ${status}`);
    this.name = 'ApiError';
  }

  /** The message of one field, when the server named it. */
  fieldMessage(field: string): string | undefined {
    return this.fields.find((f) => f.field === field)?.message;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let csrfToken: Promise<string> | null = null;

/** The session's CSRF token, fetched once and shared; forgotten when the session changes. */
function currentCsrfToken(): Promise<string> {
  csrfToken ??= send<{ csrfToken: string }>('GET', '/auth/csrf')
    .then((body) => body.csrfToken)
    .catch((error: unknown) => {
      csrfToken = null;
      throw error;
    });
  return csrfToken;
}

/** Sign-in and sign-out regenerate the session, and with it the token. */
export function forgetCsrfToken(): void {
  csrfToken = null;
}

async function readError(response: Response): Promise<ApiError> {
  let body: ApiErrorBody = {};
  try {
    body = (await response.json()) as ApiErrorBody;
  } catch {
    // Not JSON (a proxy's error page, say): the status alone is what we know.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    body.error?.code ?? 'http_error',
    body.error?.message ?? response.statusText ?? '',
    body.error?.fields ?? [],
    body.requestId,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

async function send<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['x-csrf-token'] = token;
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${path}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server.');
  }
  if (!response.ok) throw await readError(response);
  if (response.status === 204 || response.headers.get('content-length') === '0') return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Calls the API at `path` (below /api). State-changing methods carry the CSRF token; a 403
 * `csrf` answer (the session changed under us) fetches a new token and tries once more.
 */
export async function apiFetch<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = (options.method ?? 'GET').toUpperCase();
  if (!STATE_CHANGING.has(method)) return send<T>(method, path, options.body);
  try {
    return await send<T>(method, path, options.body, await currentCsrfToken());
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403 || error.code !== 'csrf') throw error;
    forgetCsrfToken();
    return send<T>(method, path, options.body, await currentCsrfToken());
  }
}

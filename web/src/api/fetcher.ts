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
    /** The API path (below /api) that answered so: an account's page can tell its account is gone. */
    readonly path?: string,
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

async function readError(response: Response, path: string): Promise<ApiError> {
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
    path,
  );
}

type ApiActivityListener = (sentAt: number) => void;
const apiActivityListeners = new Set<ApiActivityListener>();

/**
 * Calls `listener` each time the API answers a request, with the time the request was sent: the
 * session cookie is rolling, so every answer renews its idle timeout (the idle-session warning
 * counts from the last one). Returns the function that stops listening.
 */
export function onApiActivity(listener: ApiActivityListener): () => void {
  apiActivityListeners.add(listener);
  return () => {
    apiActivityListeners.delete(listener);
  };
}

interface RequestOptions {
  body?: unknown;
  /** A file sent as the raw request body (an upload), instead of JSON. */
  raw?: Blob;
  token?: string;
  accept?: string;
  signal?: AbortSignal;
}

/** One HTTP exchange: same-origin cookies, the body as JSON or raw, failures as ApiError. */
async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (options.raw) headers['content-type'] = options.raw.type || 'application/octet-stream';
  else if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers['x-csrf-token'] = options.token;
  const sentAt = Date.now();
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${path}`, {
      method,
      headers,
      credentials: 'include',
      signal: options.signal,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', 'Could not reach the server.');
  }
  for (const listener of apiActivityListeners) listener(sentAt);
  if (!response.ok) throw await readError(response, path);
  return response;
}

async function readJson<T>(response: Response): Promise<T> {
  if (response.status === 204 || response.headers.get('content-length') === '0') return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function send<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  return readJson<T>(await request(method, path, { body, token }));
}

/** A state-changing exchange with the CSRF token; a 403 `csrf` (the session changed under us) fetches a new token and tries once more. */
async function withCsrf<T>(attempt: (token: string) => Promise<T>): Promise<T> {
  try {
    return await attempt(await currentCsrfToken());
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403 || error.code !== 'csrf') throw error;
    forgetCsrfToken();
    return attempt(await currentCsrfToken());
  }
}

/** Calls the API at `path` (below /api); state-changing methods carry the CSRF token. */
export async function apiFetch<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = (options.method ?? 'GET').toUpperCase();
  if (!STATE_CHANGING.has(method)) return send<T>(method, path, options.body);
  return withCsrf((token) => send<T>(method, path, options.body, token));
}

/** One page of a list endpoint: its rows, and the total the API gives in x-total-count. */
export interface Page<T> {
  rows: T[];
  total: number;
  /** Other counts the API sends beside the page, by header name (x-total-incomplete-count). */
  counts?: Record<string, number>;
}

const COUNT_HEADER = /^x-total-[a-z-]+-count$/;

export async function apiFetchPage<T>(path: string): Promise<Page<T>> {
  const response = await request('GET', path);
  const rows = await readJson<T[]>(response);
  const total = Number(response.headers.get('x-total-count'));
  const counts: Record<string, number> = {};
  response.headers.forEach((value, name) => {
    if (COUNT_HEADER.test(name) && Number.isFinite(Number(value))) counts[name] = Number(value);
  });
  return { rows, total: Number.isFinite(total) ? total : rows.length, counts };
}

/** POSTs a file as the raw request body (with the CSRF token) and reads the JSON answer. */
export function apiUpload<T>(path: string, file: Blob): Promise<T> {
  return withCsrf(async (token) => readJson<T>(await request('POST', path, { raw: file, token })));
}

/** GETs a file (a PDF, a CSV): its bytes and the name the API gave it in Content-Disposition. */
export async function apiDownload(path: string, options: { fallbackName: string; signal?: AbortSignal }): Promise<{ blob: Blob; fileName: string }> {
  const response = await request('GET', path, { accept: '*/*', signal: options.signal });
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? options.fallbackName;
  return { blob: await response.blob(), fileName };
}

/** Hands a downloaded file to the browser as a download (the page stays where it is). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Query-string parameters, leaving out the empty ones (undefined, null, ''). */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  return new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)])).toString();
}

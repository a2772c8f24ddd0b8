/**
 * A stand-in for the API behind fetch: answers by "METHOD /path" (the path below /api, query
 * string included when the key has one). Unknown requests answer 404 in the API's error shape.
 */
import { vi } from 'vitest';

export interface MockAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type MockHandler = MockAnswer | ((body: unknown) => MockAnswer);

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** The API's answer to a request it refuses: `{ error: { code, message, fields? }, requestId }` (api/src/http/error-handler.ts). */
export function apiRefusal(status: number, code: string, message: string, fields?: { field: string; message: string }[]): MockAnswer {
  return { status, body: { error: { code, message, ...(fields ? { fields } : {}) }, requestId: 'test-request' } };
}

export function mockApi(routes: Record<string, MockHandler>): SentRequest[] {
  const sent: SentRequest[] = [];
  const all: Record<string, MockHandler> = { 'GET /auth/csrf': { body: { csrfToken: 'test-token' } }, ...routes };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      const path = url.pathname.replace(/^\/api/, '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      sent.push({ method, path: `${path}${url.search}`, body });
      const handler = all[`${method} ${path}${url.search}`] ?? all[`${method} ${path}`];
      const answer = typeof handler === 'function' ? handler(body) : (handler ?? apiRefusal(404, 'not_found', `No stand-in for ${method} ${path}`));
      const status = answer.status ?? 200;
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    }),
  );
  return sent;
}

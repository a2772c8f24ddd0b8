/**
 * Signing in, for the programs that sign in as a demo user without a person at the keyboard (the
 * tests, the bench, the load and Lighthouse runs): admins and lab users must use a second factor
 * (domain/src/access/two-factor.ts), so such a sign-in does what a person would do.
 *
 * At a user's first sign-in in a database it enrols an authenticator app the way the enrolment
 * screen does (the code computed from the secret the server shows) and asks to remember the device;
 * later sign-ins send that remembered-device cookie and are not asked again. Should the device be
 * forgotten (an admin's reset, a factor removed), the next sign-in answers with one of the recovery
 * codes kept from the enrolment, or enrols afresh when the user has no factor any more.
 *
 * What it learnt is kept per (database, email) for the life of the process.
 */
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { REMEMBERED_DEVICE_COOKIE, REMEMBERED_DEVICE_COOKIE_PATH } from '@platform/domain';

export interface SignInAnswer {
  status: number;
  body: unknown;
  /** The response's Set-Cookie values. */
  setCookies: string[];
}

/** An HTTP client that keeps its cookies and sends the CSRF token the API wants. */
export interface SignInClient {
  post(path: string, body: unknown): Promise<SignInAnswer>;
  /** From now on, send this cookie with requests to /api/auth. */
  addCookie(name: string, value: string): Promise<void> | void;
}

interface Known {
  deviceToken: string | null;
  recoveryCodes: string[];
}

/** Shared by every copy of this module a process loads (the tests load it through more than one path). */
const KNOWN_KEY = Symbol.for('platform.second-step.known');
const known: Map<string, Known> = ((globalThis as Record<symbol, unknown>)[KNOWN_KEY] ??= new Map()) as Map<string, Known>;
const keyOf = (database: string, email: string) => `${database}\n${email.toLowerCase()}`;

interface Challenge {
  secondFactor: { required: true; enrol: boolean; methods: string[] };
}
const isChallenge = (body: unknown): body is Challenge => typeof body === 'object' && body !== null && 'secondFactor' in body;

function deviceTokenOf(answer: SignInAnswer): string | null {
  for (const cookie of answer.setCookies) {
    const [pair] = cookie.split(';');
    const at = pair.indexOf('=');
    if (pair.slice(0, at).trim() === REMEMBERED_DEVICE_COOKIE) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return null;
}

function expectOk(answer: SignInAnswer, what: string): SignInAnswer {
  if (answer.status !== 200) throw new Error(`${what} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** The device cookie this process has for the user in that database, if any (to hand to a browser). */
export function rememberedDeviceOf(database: string, email: string): string | null {
  return known.get(keyOf(database, email))?.deviceToken ?? null;
}

/**
 * POST /api/auth/login and, when a second step follows, completes it: answers the login's status
 * and, signed in, the `Me` body (a refused password answers as the login did).
 */
export async function signInCompletely(
  client: SignInClient, database: string, credentials: { email: string; password: string; portal: string },
): Promise<SignInAnswer> {
  const key = keyOf(database, credentials.email);
  if (known.get(key)?.deviceToken) return signInOnce(client, key, credentials);
  // Until the device is remembered, one sign-in of the user at a time: two first sign-ins side by side would both enrol.
  const run = (firstSignIns.get(key) ?? Promise.resolve()).then(() => signInOnce(client, key, credentials));
  firstSignIns.set(key, run.catch(() => undefined));
  return run;
}

const firstSignIns = new Map<string, Promise<unknown>>();

async function signInOnce(client: SignInClient, key: string, credentials: { email: string; password: string; portal: string }): Promise<SignInAnswer> {
  const before = known.get(key);
  if (before?.deviceToken) await client.addCookie(REMEMBERED_DEVICE_COOKIE, before.deviceToken);
  const login = await client.post('/api/auth/login', credentials);
  if (login.status !== 200 || !isChallenge(login.body)) return login;

  if (login.body.secondFactor.enrol) {
    const setup = expectOk(await client.post('/api/auth/second-factor/enrol/totp', {}), `enrolling ${credentials.email}'s authenticator app`);
    const { secret } = setup.body as { secret: string };
    const confirmed = expectOk(
      await client.post('/api/auth/second-factor/enrol/totp/confirm', { code: generateSync({ secret }), rememberDevice: true }),
      `confirming ${credentials.email}'s authenticator app`,
    );
    const { recoveryCodes, me } = confirmed.body as { recoveryCodes: string[]; me: unknown };
    known.set(key, { deviceToken: deviceTokenOf(confirmed), recoveryCodes: [...recoveryCodes] });
    return { ...confirmed, body: me };
  }

  const code = before?.recoveryCodes.shift();
  if (!code) throw new Error(`${credentials.email} must answer a second step, and this process neither remembers the device nor holds a recovery code`);
  const answered = expectOk(await client.post('/api/auth/second-factor', { method: 'recovery', code, rememberDevice: true }), `${credentials.email}'s recovery code`);
  before!.deviceToken = deviceTokenOf(answered);
  return answered;
}

/** A fetch client that keeps its cookies the way a browser does (host-only, no expiry: enough for one server). */
export function cookieKeepingFetch(base: string) {
  let cookies: string[] = [];
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: cookies.join('; ') } });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) cookies = [...cookies.filter((c) => !set.some((s) => s.split('=')[0] === c.split('=')[0])), ...set];
    return res;
  };
  const csrf = async () => ((await (await call('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  const addCookie = (name: string, value: string) => {
    cookies = [...cookies.filter((c) => c.split('=')[0] !== name), `${name}=${encodeURIComponent(value)}`];
  };
  return { call, csrf, addCookie, cookieHeader: () => cookies.join('; ') };
}

/** Signs in over HTTP (answering a second step): the cookies to send and the session's CSRF token. */
export async function signInOverHttp(
  base: string, database: string, credentials: { email: string; password: string; portal: string },
): Promise<{ call: ReturnType<typeof cookieKeepingFetch>['call']; cookie: string; csrfToken: string }> {
  const http = cookieKeepingFetch(base);
  const anonymousToken = await http.csrf();
  const client: SignInClient = {
    async post(path, body) {
      const res = await http.call(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': anonymousToken }, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, setCookies: res.headers.getSetCookie() };
    },
    addCookie: http.addCookie,
  };
  const answer = await signInCompletely(client, database, credentials);
  if (answer.status !== 200) throw new Error(`sign-in of ${credentials.email} failed: ${answer.status}`);
  const csrfToken = await http.csrf();
  return { call: http.call, cookie: http.cookieHeader(), csrfToken };
}

/** A browser page as a client of the API (its requests carry the browser's cookies). */
function browserClient(page: Page): SignInClient {
  let csrf: string | null = null;
  const at = (path: string) => new URL(path, page.url()).toString();
  return {
    async post(path, body) {
      csrf ??= ((await (await page.request.get(at('/api/auth/csrf'))).json()) as { csrfToken: string }).csrfToken;
      const res = await page.request.post(at(path), { data: body as object, headers: { 'x-csrf-token': csrf } });
      const text = await res.text();
      return { status: res.status(), body: text ? JSON.parse(text) : null, setCookies: res.headersArray().filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value) };
    },
    async addCookie(name, value) {
      const { hostname } = new URL(page.url());
      await page.context().addCookies([{ name, value, domain: hostname, path: REMEMBERED_DEVICE_COOKIE_PATH }]);
    },
  };
}

/**
 * The page's browser remembered for this user, as after their first sign-in with "Remember this
 * device": the sign-in page then asks the password only. The first time in a database it signs in
 * through the API (enrolling an authenticator app when the user must) and out again. The page must
 * be open on one of the product's pages (the requests go to its origin).
 */
export async function rememberBrowser(page: Page, database: string, credentials: { email: string; password: string; portal: string }): Promise<void> {
  const client = browserClient(page);
  const token = rememberedDeviceOf(database, credentials.email);
  if (token) return client.addCookie(REMEMBERED_DEVICE_COOKIE, token);
  const answer = await signInCompletely(client, database, credentials);
  if (answer.status !== 200) throw new Error(`signing in ${credentials.email} to remember the browser: ${answer.status} ${JSON.stringify(answer.body)}`);
  const { csrfToken } = (await (await page.request.get(new URL('/api/auth/csrf', page.url()).toString())).json()) as { csrfToken: string };
  await page.request.post(new URL('/api/auth/logout', page.url()).toString(), { headers: { 'x-csrf-token': csrfToken } });
}

/**
 * The one polling helper of the tests: asks `fn` again and again until it answers something
 * truthy (which it returns), or fails naming what it waited for. Tests never sleep a fixed time:
 * they wait for the state they need (a row, a job's final status, an email) with this.
 */
export interface UntilOptions {
  /** What is awaited, for the failure message ("timed out after 20000 ms waiting for <what>"); a function is asked at the end. */
  what: string | (() => string);
  timeoutMs?: number;
  intervalMs?: number;
}

export const DEFAULT_UNTIL_TIMEOUT_MS = 20_000;

export async function until<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, options: UntilOptions): Promise<T> {
  const { what, timeoutMs = DEFAULT_UNTIL_TIMEOUT_MS, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

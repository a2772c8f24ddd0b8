import { notFound } from '@platform/server';

/** A positive whole-number id from the path, or the 404 of something that does not exist. */
export function pathId(value: unknown, what: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw notFound(`${what} not found`);
  return n;
}

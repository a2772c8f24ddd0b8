/**
 * One statement for what many jobs running at once each need (their job row written, their email
 * read, their webhook delivery logged, the outbox rows committed at once handed to BullMQ):
 * PostgreSQL round trips, not the work, were the worker's limit with many jobs in flight.
 * Collects the items handed in during one turn of the event loop (and while the previous statement
 * runs), runs `run` once for them, and settles each caller's promise with its own answer.
 */

import type { Db } from '@platform/db';

/** Items one statement carries at most, unless the caller says otherwise. */
const ITEMS_PER_STATEMENT = 500;

export function batched<T, R = void>(
  run: (items: T[]) => Promise<R[] | void>,
  itemsPerStatement = ITEMS_PER_STATEMENT,
): (item: T) => Promise<R> {
  let waiting: Array<{ item: T; resolve: (r: R) => void; reject: (err: unknown) => void }> = [];
  let inFlight = false;
  const flushSoon = () => {
    if (inFlight || !waiting.length) return;
    inFlight = true;
    setImmediate(() => {
      const batch = waiting.slice(0, itemsPerStatement);
      waiting = waiting.slice(batch.length);
      run(batch.map((w) => w.item)).then(
        (answers) => batch.forEach((w, i) => w.resolve((answers ? answers[i] : undefined) as R)),
        (err) => batch.forEach((w) => w.reject(err)),
      ).finally(() => {
        inFlight = false;
        flushSoon();
      });
    });
  };
  return (item) => new Promise<R>((resolve, reject) => {
    waiting.push({ item, resolve, reject });
    flushSoon();
  });
}

/** A batched statement per database (per worker: tests run several), made on first use. */
export function batchedPerDb<T, R = void>(run: (db: Db, items: T[]) => Promise<R[] | void>): (db: Db, item: T) => Promise<R> {
  const made = new WeakMap<Db, (item: T) => Promise<R>>();
  return (db, item) => {
    let statement = made.get(db);
    if (!statement) made.set(db, (statement = batched((items: T[]) => run(db, items))));
    return statement(item);
  };
}

/**
 * The items in rounds where each key appears once, in their order: an UPDATE … FROM changes a row
 * once per statement, so a row's second item (the same delivery attempted twice at once) goes in
 * the next statement.
 */
export function onePerKey<T>(items: readonly T[], key: (item: T) => unknown): T[][] {
  const rounds: Array<{ items: T[]; keys: Set<unknown> }> = [];
  for (const item of items) {
    const k = key(item);
    let round = rounds.find((r) => !r.keys.has(k));
    if (!round) rounds.push((round = { items: [], keys: new Set() }));
    round.items.push(item);
    round.keys.add(k);
  }
  return rounds.map((r) => r.items);
}

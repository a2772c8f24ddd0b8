/**
 * Batched statements (server/src/batched.ts, the worker's): what concurrent jobs hand in at the same moment goes out as one
 * statement, each job gets its own answer, and a failed statement fails only the jobs it carried.
 */
import { expect } from 'chai';
import { batched, onePerKey } from '@platform/server';

describe('worker: one statement for concurrent jobs (batched)', () => {
  it('jobs handing in at the same moment share one run, and each gets its own answer', async () => {
    const runs: number[][] = [];
    const double = batched<number, number>(async (items) => {
      runs.push(items);
      return items.map((n) => n * 2);
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => double(n)));
    expect(answers).to.deep.equal([2, 4, 6, 8]);
    expect(runs).to.deep.equal([[1, 2, 3, 4]]);
  });

  it('a run carries at most the items per statement its caller set, the rest go in the next runs', async () => {
    const runs: number[][] = [];
    const write = batched<number>(async (items) => {
      runs.push(items);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => write(n)));
    expect(runs).to.deep.equal([[1, 2], [3, 4], [5]]);
  });

  it('what arrives while a run is under way waits for the next run, not for a later one', async () => {
    const runs: string[][] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((r) => (release = r));
    const write = batched<string>(async (items) => {
      runs.push(items);
      if (runs.length === 1) await firstHeld;
    });
    const first = write('a');
    await new Promise((r) => setImmediate(r)); // the first run has started
    const later = [write('b'), write('c')];
    release();
    await Promise.all([first, ...later]);
    expect(runs).to.deep.equal([['a'], ['b', 'c']]);
  });

  it('a failed run rejects every job it carried, and the next run still goes out', async () => {
    let fail = true;
    const write = batched<number>(async () => {
      if (fail) throw new Error('connection lost');
    });
    const results = await Promise.allSettled([write(1), write(2)]);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).to.equal('connection lost');
    fail = false;
    await write(3); // resolves: the writer is not stuck after a failure
  });

  it('splits a batch into statements where each row appears once, keeping the order', () => {
    const attempts = [{ id: 1, n: 'a' }, { id: 2, n: 'b' }, { id: 1, n: 'c' }, { id: 1, n: 'd' }, { id: 3, n: 'e' }];
    expect(onePerKey(attempts, (a) => a.id).map((round) => round.map((a) => a.n))).to.deep.equal([['a', 'b', 'e'], ['c'], ['d']]);
    expect(onePerKey([], (a: { id: number }) => a.id)).to.deep.equal([]);
  });
});

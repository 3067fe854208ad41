import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { oncePerTurn } from './once-per-turn.ts';

describe('oncePerTurn', () => {
  it('runs once per key for the callers of one turn, and each caller gets the outcome', async () => {
    const runs: string[] = [];
    const run = oncePerTurn(async (key: string) => {
      runs.push(key);
      return `${key} done`;
    });
    const answers = await Promise.all([run('a'), run('a'), run('b'), run('a')]);
    expect(answers).toEqual(['a done', 'a done', 'b done', 'a done']);
    expect(runs).toEqual(['a', 'b']);
  });

  it('starts after the callers asked: the run sees what they did before asking', async () => {
    let stored = 0;
    const run = oncePerTurn(async () => stored);
    stored = 1;
    const first = run('owner');
    stored = 2; // Another caller stores, then asks in the same turn.
    const second = run('owner');
    expect(await first).toBe(2);
    expect(await second).toBe(2);
  });

  it('a call made while a run is under way gets a run of its own after it', async () => {
    const runs: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = oncePerTurn(async (key: number) => {
      runs.push(key);
      if (runs.length === 1) await held;
      return runs.length;
    });
    const first = run(7);
    await nextTurn();
    await nextTurn();
    expect(runs).toEqual([7]); // The first run is under way, held.
    const second = run(7);
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(runs).toEqual([7, 7]);
  });

  it('hands a failure to every caller of that run, and the next turn runs again', async () => {
    let calls = 0;
    const run = oncePerTurn(async () => {
      calls++;
      if (calls === 1) throw new Error('database gone');
      return 'ok';
    });
    const outcomes = await Promise.allSettled([run('x'), run('x')]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(await run('x')).toBe('ok');
    expect(calls).toBe(2);
  });
});

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxResponse } from './sandbox-thread.ts';
import { runInThread } from './thread-harness.ts';

describe('the sandbox worker thread', () => {
  const worker = new Worker(new URL('./sandbox-thread.mjs', import.meta.url));
  const firstMessage = once(worker, 'message') as Promise<[unknown]>;

  afterAll(async () => {
    await worker.terminate();
  });

  it('announces { ready: true } once it can run a script, before any answer', async () => {
    const [message] = await firstMessage;
    expect(message).toEqual({ ready: true });
  });

  async function ask(message: unknown): Promise<SandboxResponse> {
    await firstMessage;
    const answer = once(worker, 'message') as Promise<[SandboxResponse]>;
    worker.postMessage(message);
    const [response] = await answer;
    return response;
  }

  it('runs a script sent as { id, code, limits } and answers { id, result }', async () => {
    const response = await ask({
      id: 7,
      code: 'print("hello from the thread") return 6 * 7',
      limits: { outputBytes: 1024 },
    });

    expect(response).toMatchObject({
      id: 7,
      result: { success: true, output: 'hello from the thread\n', returns: ['42'], error: null, limit: null },
    });
  });

  it("takes the worker pool's { id, job } messages too", async () => {
    const response = await ask({ id: 12, job: { code: 'return "from a pool job"', limits: { outputBytes: 1024 } } });

    expect(response).toMatchObject({ id: 12, result: { success: true, returns: ['from a pool job'] } });
  });

  it('answers the runs in the order they were sent', async () => {
    const answers: SandboxResponse[] = [];
    const listener = (response: SandboxResponse): void => {
      answers.push(response);
    };
    await firstMessage;
    worker.on('message', listener);
    for (const id of ['a', 'b', 'c']) {
      worker.postMessage({ id, code: `return "${id}"` });
    }
    await expect.poll(() => answers.length).toBe(3);
    worker.off('message', listener);

    expect(answers.map((answer) => [answer.id, answer.result.returns[0]])).toEqual([
      ['a', 'a'],
      ['b', 'b'],
      ['c', 'c'],
    ]);
  });

  it('answers a malformed message instead of throwing', async () => {
    expect(await ask({ id: 8, code: 42 })).toMatchObject({
      id: 8,
      result: { success: false, error: 'A sandbox request needs code as a string' },
    });
    expect(await ask('not an object')).toMatchObject({ id: null, result: { success: false } });
    expect(await ask({ id: 9, code: 'return 1', limits: { deadlineMs: -1 } })).toMatchObject({
      id: 9,
      result: { success: false, error: expect.stringMatching(/deadlineMs must be a positive number/) },
    });
  });

  it('is not hung by a looping __gc finalizer: the sandbox refuses __gc', async () => {
    const hostile = await ask({
      id: 13,
      code: 'setmetatable({}, { __gc = function() while true do end end }) collectgarbage()',
    });
    const next = await ask({ id: 14, code: 'return "alive"' });

    expect(hostile.result).toMatchObject({
      success: false,
      error: expect.stringMatching(/__gc metamethods are not supported/),
    });
    expect(next.result.returns).toEqual(['alive']);
  });

  it('keeps serving after a script hit a limit', async () => {
    const limited = await ask({ id: 10, code: 'while true do end', limits: { instructionLimit: 1_000_000 } });
    const next = await ask({ id: 11, code: 'return "alive"' });

    expect(limited.result.limit).toBe('instructions');
    expect(next.result.returns).toEqual(['alive']);
  });
});

describe('the thread harness', () => {
  it('answers a quick run without terminating the thread', async () => {
    const run = await runInThread('return "quick"', { hardDeadlineMs: 3000 });

    expect(run).toMatchObject({ terminated: false, result: { success: true, returns: ['quick'] } });
  });
});

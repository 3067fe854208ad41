import { afterEach, describe, expect, it } from 'vitest';
import { buildValidScript } from './corpus.test-support.ts';
import {
  LuaToolsBusyError,
  LuaToolsStoppedError,
  LuaToolsTimeoutError,
  LuauParserCrashError,
  LuauSyntaxError,
} from './lua-tools.errors.ts';
import { createLuaToolsService, type LuaToolsOptions, type LuaToolsService } from './lua-tools.service.ts';

const oneMegabyte = buildValidScript(1024 * 1024);
// A thread's first 1 MB check grows StyLua's WASM memory page by page: 1.5 s alone, over 5 s when
// the test files run side by side on two cores. Tests that are not about the deadline allow more.
const patient = { deadlineMs: 60_000 };
const hundredKilobytes = buildValidScript(100 * 1024);

const services: LuaToolsService[] = [];
function service(options: LuaToolsOptions = {}): LuaToolsService {
  const created = createLuaToolsService(options);
  services.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(services.splice(0).map((created) => created.close()));
});

describe('lua tools service', () => {
  it('starts no thread before the first call', async () => {
    const tools = service();
    expect(tools.stats().threads).toBe(0);
    await tools.check('local x = 1');
    expect(tools.stats().threads).toBe(1);
  });

  it('checks and formats in its threads', async () => {
    const tools = service();
    expect(await tools.check('local x: number = 1')).toEqual({ ok: true, diagnostics: [] });
    expect(await tools.check('local x = = 1')).toEqual({
      ok: false,
      diagnostics: [
        {
          line: 1,
          column: 11,
          endLine: 1,
          endColumn: 12,
          message: "Expected identifier when parsing expression, got '='",
        },
      ],
    });
    expect(await tools.format('local   t={1,2}\nif t then print( t ) end')).toEqual({
      code: 'local t = { 1, 2 }\nif t then\n  print(t)\nend\n',
    });
  });

  it('rejects formatting invalid code with LuauSyntaxError and its diagnostics', async () => {
    const tools = service();
    const error = await tools.format('local x = = 1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LuauSyntaxError);
    expect((error as LuauSyntaxError).diagnostics[0]).toMatchObject({ line: 1, column: 11 });
  });

  it('terminates and replaces a thread that passes its deadline; the next call works', async () => {
    const tools = service();
    await tools.check('local warm = true');
    const error = await tools.check(oneMegabyte, { deadlineMs: 1 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LuaToolsTimeoutError);
    expect((error as LuaToolsTimeoutError).threadReplaced).toBe(true);
    expect((error as Error).message).toMatch(/longer than 1 ms; its thread was terminated and replaced/);
    expect(tools.stats()).toMatchObject({ threads: 1, replaced: 1 });
    expect(await tools.check('local x = 1')).toEqual({ ok: true, diagnostics: [] });
  });

  it("never counts a thread's start-up against a call's deadline", async () => {
    // The thread holds its start-up for 3 s: a deadline counted from the call's acceptance (1.5 s)
    // would end the call, and the thread it waits for, before the thread could take it.
    const tools = service({ deadlineMs: 1_500, threadData: { readyDelayMs: 3_000 } });
    expect(await tools.check('local x = 1')).toEqual({ ok: true, diagnostics: [] });
    expect(await tools.format('local   x=1')).toEqual({ code: 'local x = 1\n' });
    expect(tools.stats()).toMatchObject({ threads: 1, replaced: 0 });
  });

  it('fails the waiting calls of a thread that is not ready within the start-up limit, then starts afresh', async () => {
    const tools = service({ startLimitMs: 200, threadData: { readyDelayMs: 60_000 } });
    const calls = [tools.check('local a = 1'), tools.format('local b = 2')].map((call) =>
      call.catch((thrown: unknown) => thrown),
    );
    for (const error of await Promise.all(calls)) {
      expect(error).toBeInstanceOf(LuaToolsStoppedError);
      expect((error as Error).message).toBe('The Luau tools thread did not start: not ready within 200 ms');
    }
    expect(tools.stats()).toMatchObject({ threads: 0, waiting: 0 });
    // The next call starts a thread again (and this one is as slow, so it fails the same way).
    await expect(tools.check('local c = 3')).rejects.toBeInstanceOf(LuaToolsStoppedError);
  });

  it('applies the service deadline to every call', async () => {
    const tools = service({ deadlineMs: 1 });
    await expect(tools.check(oneMegabyte)).rejects.toBeInstanceOf(LuaToolsTimeoutError);
  });

  it('drops a call that waits past its deadline without touching the running one', async () => {
    const tools = service({ threads: 1 });
    const running = tools.check(oneMegabyte, patient);
    const error = await tools.check('local x = 1', { deadlineMs: 20 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LuaToolsTimeoutError);
    expect((error as LuaToolsTimeoutError).threadReplaced).toBe(false);
    expect((await running).ok).toBe(true);
    expect(tools.stats().replaced).toBe(0);
  });

  it('rejects with LuaToolsBusyError when the queue is full', async () => {
    const tools = service({ threads: 1, maxQueue: 2 });
    const accepted = [tools.check(hundredKilobytes), tools.check('local a = 1'), tools.check('local b = 2')];
    await expect(tools.check('local c = 3')).rejects.toBeInstanceOf(LuaToolsBusyError);
    const results = await Promise.all(accepted);
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(await tools.check('local d = 4')).toEqual({ ok: true, diagnostics: [] });
  });

  it('refuses code nested too deeply with a syntax error, on its thread', async () => {
    const tools = service();
    const deep = `local t = ${'{'.repeat(100_000)}${'}'.repeat(100_000)}`;
    expect(await tools.check(deep)).toMatchObject({
      ok: false,
      diagnostics: [{ message: 'Exceeded allowed recursion depth; simplify your expression to make the code compile' }],
    });
    expect(tools.stats().replaced).toBe(0);
  });

  it('replaces a thread whose formatter crashed on deep nesting; checks go on', async () => {
    const tools = service();
    // Valid for the checker (far below its limit), too deep for StyLua's 1 MB WASM stack.
    const deep = `local t = ${'{'.repeat(200)}${'}'.repeat(200)}`;
    expect(await tools.check(deep)).toEqual({ ok: true, diagnostics: [] });
    await expect(tools.format(deep)).rejects.toBeInstanceOf(LuauParserCrashError);
    expect(tools.stats().replaced).toBe(1);
    expect(await tools.check('local x = 1')).toEqual({ ok: true, diagnostics: [] });
    expect(await tools.format('local   x=1')).toEqual({ code: 'local x = 1\n' });
  });

  // How long a check takes is the luau benchmark's to say (npm run bench -- luau); here only where it runs.
  it('checks a 1 MB script off the main thread: the event loop keeps turning while it is under way', async () => {
    const tools = service();
    await tools.check('local warm = true');
    let settled = false;
    const checking = tools.check(oneMegabyte, patient).finally(() => (settled = true));
    // A check done on this thread would have settled before the loop turned once.
    for (let turn = 0; turn < 20; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
    }
    expect(await checking).toEqual({ ok: true, diagnostics: [] });
  });

  it('rejects calls once closed, and close() stops its threads and fails calls in flight', async () => {
    const tools = service({ threads: 1 });
    const inFlight = tools.check(oneMegabyte).catch((thrown: unknown) => thrown);
    const waiting = tools.check('local x = 1').catch((thrown: unknown) => thrown);
    await tools.close();
    expect(await inFlight).toBeInstanceOf(LuaToolsStoppedError);
    expect(await waiting).toBeInstanceOf(LuaToolsStoppedError);
    await expect(tools.check('local x = 1')).rejects.toBeInstanceOf(LuaToolsStoppedError);
    expect(tools.stats().threads).toBe(0);
    await tools.close();
  });
});

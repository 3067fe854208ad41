import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeOpenCloud, LUAU_EXECUTION_SCOPE, USER_RESTRICTION_SCOPE } from './fake-open-cloud.ts';

/**
 * The fake of Roblox's Luau Execution API, over real HTTP. Most tests share one fake on a clock of
 * their own: a task moves on only when a test moves the clock, and a test waits for a script's
 * sandbox run with `scriptRan`, so nothing here sleeps.
 */

const UNIVERSE = '4242';
const WRITE_KEY = 'luau-write-key';
const READ_KEY = 'luau-read-key';
const BAN_KEY = 'ban-only-key';
const OTHER_UNIVERSE_KEY = 'other-universe-key';

type Fake = ReturnType<typeof fakeOpenCloud>;

interface Answer {
  status: number;
  headers: Headers;
  // The fake's answers are JSON objects; each test reads the fields it checks.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

function client(base: () => string) {
  async function call(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
    const response = await fetch(base() + path, {
      method,
      headers: { 'x-api-key': options.key ?? WRITE_KEY, 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }
  return {
    call,
    create: (placeId: string, body: Record<string, unknown>, options: { key?: string; version?: number } = {}) =>
      call(
        'POST',
        `/cloud/v2/universes/${UNIVERSE}/places/${placeId}${options.version ? `/versions/${options.version}` : ''}/luau-execution-session-tasks`,
        { key: options.key, body },
      ),
    task: (path: string, view?: 'BASIC' | 'FULL', key?: string) =>
      call('GET', `/cloud/v2/${path}${view ? `?view=${view}` : ''}`, { key }),
    logs: (path: string, query = '') => call('GET', `/cloud/v2/${path}/logs${query ? `?${query}` : ''}`),
  };
}

describe('the fake Luau Execution API on the fake clock', () => {
  let clock = Date.parse('2025-06-01T12:00:00.000Z');
  const roblox = fakeOpenCloud({ now: () => clock });
  let base = '';
  const { call, create, task, logs } = client(() => base);
  let places = 100;
  /** A place of its own for each test, so no test's unfinished tasks count against another's. */
  let place = '';

  beforeAll(async () => {
    base = await roblox.start();
    roblox.addKey(WRITE_KEY, UNIVERSE, [`${LUAU_EXECUTION_SCOPE}:write`]);
    roblox.addKey(READ_KEY, UNIVERSE, [`${LUAU_EXECUTION_SCOPE}:read`, `${USER_RESTRICTION_SCOPE}:read`]);
    roblox.addKey(BAN_KEY, UNIVERSE);
    roblox.addKey(OTHER_UNIVERSE_KEY, '1111', [`${LUAU_EXECUTION_SCOPE}:write`]);
  });
  afterAll(() => roblox.stop());
  beforeEach(() => {
    // A minute later, each key's rate limits start afresh.
    clock += 61_000;
    place = String(places++);
    roblox.luau.addPlace(UNIVERSE, place, { versions: [3, 7] });
    roblox.luau.setLimits({ createsPerMinute: 5, readsPerMinute: 200, logReadsPerMinute: 45, retryAfter: true });
  });

  /** Creates a task and waits until its script has run (it is still QUEUED: the clock has not moved). */
  async function ran(script: string, extra: Record<string, unknown> = {}) {
    const created = await create(place, { script, ...extra });
    expect(created.status).toBe(200);
    await roblox.luau.scriptRan(created.body.path);
    return created.body.path as string;
  }

  it("answers key introspection with the key's own scopes, and 401 for an unknown key", async () => {
    const introspect = (apiKey: string) => call('POST', '/api-keys/v1/introspect', { body: { apiKey } });
    const luau = await introspect(WRITE_KEY);
    expect(luau.status).toBe(200);
    expect(luau.body).toMatchObject({
      scopes: [{ name: LUAU_EXECUTION_SCOPE, operations: ['write'] }],
      enabled: true,
      expired: false,
      expirationTimeUtc: null,
    });
    expect(luau.body.authorizedUserId).toEqual(expect.any(Number));
    // A key added without scopes has the Ban API's, as every key had before cloud runs.
    expect((await introspect(BAN_KEY)).body.scopes).toEqual([
      { name: USER_RESTRICTION_SCOPE, operations: ['read', 'write'] },
    ]);
    expect(await introspect('nobody')).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' },
    });
  });

  it('runs a task: QUEUED, then PROCESSING with its lines appearing, then COMPLETE with the results', async () => {
    const script = 'print("one")\nwarn("two", 2)\nprint("three\\nlines")\nreturn 42, "text", { a = { 1, 2 } }';
    const created = await create(place, { script });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      state: 'QUEUED',
      script,
      timeout: '300s',
      user: expect.stringMatching(/^\d+$/),
    });
    // On the place's head version (the last added), in a session of its own.
    expect(created.body.path).toMatch(
      new RegExp(`^universes/${UNIVERSE}/places/${place}/versions/7/luau-execution-sessions/[\\w-]+/tasks/[\\w-]+$`),
    );
    const path: string = created.body.path;
    await roblox.luau.scriptRan(path);
    expect((await task(path)).body.state).toBe('QUEUED');
    expect((await logs(path)).body).toEqual({ luauExecutionSessionTaskLogs: [] });

    clock += 50;
    const processing = await task(path);
    expect(processing.body.state).toBe('PROCESSING');
    expect(processing.body.output).toBeUndefined();
    // The first of the three lines is out; the others follow over processingMs.
    expect((await logs(path)).body.luauExecutionSessionTaskLogs[0].messages).toEqual(['one']);
    clock += 20;
    expect((await logs(path)).body.luauExecutionSessionTaskLogs[0].messages).toEqual(['one', 'two 2']);

    clock += 30;
    const done = await task(path);
    expect(done.body).toMatchObject({ state: 'COMPLETE', output: { results: [42, 'text', { a: [1, 2] }] } });
    expect(done.body.updateTime).toBe(new Date(clock).toISOString());
    // BASIC (the default) leaves the script out; FULL has it.
    expect(done.body.script).toBeUndefined();
    expect((await task(path, 'FULL')).body.script).toBe(script);
    const flat = await logs(path, 'view=FLAT');
    expect(flat.body.luauExecutionSessionTaskLogs).toEqual([
      { path: `${path}/logs/1`, messages: ['one', 'two 2', 'three\nlines'] },
    ]);
    expect(flat.body.nextPageToken).toBeUndefined();
    const structured = (await logs(path, 'view=STRUCTURED')).body.luauExecutionSessionTaskLogs[0].structuredMessages;
    expect(
      structured.map(({ message, messageType }: { message: string; messageType: string }) => [message, messageType]),
    ).toEqual([
      ['one', 'OUTPUT'],
      ['two 2', 'WARNING'],
      ['three\nlines', 'OUTPUT'],
    ]);
    const times = structured.map(({ createTime }: { createTime: string }) => Date.parse(createTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('pages through the logs with maxPageSize and nextPageToken', async () => {
    const path = await ran('for i = 1, 5 do print("line " .. i) end');
    clock += 100;
    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const page = await logs(path, `maxPageSize=2${token ? `&pageToken=${token}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.luauExecutionSessionTaskLogs[0].messages);
      token = page.body.nextPageToken;
    } while (token && pages.length < 10);
    expect(pages).toEqual([['line 1', 'line 2'], ['line 3', 'line 4'], ['line 5']]);
    expect((await logs(path, 'pageToken=nonsense')).body.code).toBe('INVALID_ARGUMENT');
    expect((await logs(path, 'maxPageSize=-1')).status).toBe(400);
    expect((await logs(path, 'view=PRETTY')).status).toBe(400);
  });

  it('fails a script that errors with SCRIPT_ERROR, naming its line as Roblox does, and ends its logs with it', async () => {
    const path = await ran('print("before")\nlocal x = 1\nerror("boom")');
    const syntax = await ran('print("never")\nend');
    clock += 100;
    expect((await task(path)).body).toMatchObject({
      state: 'FAILED',
      error: { code: 'SCRIPT_ERROR', message: 'TaskScript:3: boom' },
    });
    expect((await task(path)).body.output).toBeUndefined();
    const structured = (await logs(path, 'view=STRUCTURED')).body.luauExecutionSessionTaskLogs[0].structuredMessages;
    expect(
      structured.map(({ message, messageType }: { message: string; messageType: string }) => [message, messageType]),
    ).toEqual([
      ['before', 'OUTPUT'],
      ['TaskScript:3: boom', 'ERROR'],
    ]);
    // A syntax error names the line of the script as written.
    expect((await task(syntax)).body.error).toEqual({
      code: 'SCRIPT_ERROR',
      message: "TaskScript:2: Expected <eof>, got 'end'",
    });
  });

  it('answers results that are not JSON as null, and fails results over 4 MB with OUTPUT_SIZE_LIMIT_EXCEEDED', async () => {
    const values = await ran('return function() end, nil, 0/0, { [1] = "a", [3] = "c" }, {}, "quote\\""');
    const huge = await ran('return string.rep("x", 4 * 1024 * 1024)');
    clock += 100;
    expect((await task(values)).body.output.results).toEqual([null, null, null, { 1: 'a', 3: 'c' }, [], 'quote"']);
    expect((await task(huge)).body).toMatchObject({
      state: 'FAILED',
      error: { code: 'OUTPUT_SIZE_LIMIT_EXCEEDED' },
    });
  });

  it('ends a script that runs too long with DEADLINE_EXCEEDED', async () => {
    const path = await ran('while true do end', { timeout: '1s' });
    clock += 100;
    expect((await task(path)).body).toMatchObject({
      state: 'FAILED',
      timeout: '1s',
      error: { code: 'DEADLINE_EXCEEDED' },
    });
  });

  it('refuses unknown keys, keys of another universe or without the scope, and unknown places, versions and tasks', async () => {
    const pinned = await create(place, { script: 'return 1' }, { version: 3 });
    expect(pinned.body.path).toContain(`/places/${place}/versions/3/`);
    const path: string = pinned.body.path;

    expect(await create(place, { script: 'return 1' }, { key: 'nobody' })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' },
    });
    expect(await create(place, { script: 'return 1' }, { key: OTHER_UNIVERSE_KEY })).toMatchObject({
      status: 403,
      body: { code: 'PERMISSION_DENIED' },
    });
    expect(await create(place, { script: 'return 1' }, { key: READ_KEY })).toMatchObject({
      status: 403,
      body: {
        code: 'PERMISSION_DENIED',
        message: 'The API key does not have the required scope universe.place.luau-execution-session:write',
      },
    });
    expect((await task(path, 'BASIC', BAN_KEY)).body.message).toBe(
      'The API key does not have the required scope universe.place.luau-execution-session:read',
    );
    // Reading needs read, which a key with write has too.
    expect((await task(path, 'BASIC', READ_KEY)).status).toBe(200);
    expect((await task(path)).status).toBe(200);

    expect(await create('999999', { script: 'return 1' })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'Place not found' },
    });
    expect((await create(place, { script: 'return 1' }, { version: 5 })).body.message).toBe('Version not found');
    expect((await task(path.replace(/tasks\/.*$/, 'tasks/unknown'))).body).toEqual({
      code: 'NOT_FOUND',
      message: 'Task not found',
    });
    await roblox.luau.scriptRan(path);
  });

  it('refuses a script over 4 MB of UTF-8 and a timeout that is not seconds up to 300s', async () => {
    roblox.luau.setLimits({ createsPerMinute: 100 });
    // Fewer than 4 Mi characters, but two bytes each.
    const tooLarge = await create(place, { script: `--${'é'.repeat(2 * 1024 * 1024)}` });
    expect(tooLarge).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
    for (const timeout of ['301s', '5m', '0s', 42])
      expect((await create(place, { script: 'return 1', timeout })).status, String(timeout)).toBe(400);
    expect((await create(place, {})).status).toBe(400);
    const accepted = await create(place, { script: 'return 1', timeout: '12.5s' });
    expect(accepted.body.timeout).toBe('12.5s');
    await roblox.luau.scriptRan(accepted.body.path);
  });

  it('keeps the markers: a task that never ends, one that is lost, one held until released', async () => {
    const never = await ran('print("started")\n--@fake:never-ends');
    const held = await ran('--@fake:hold\nprint("held")\nreturn "released"');
    const lost = await create(place, { script: 'return 1 --@fake:lose' });
    expect(lost.status).toBe(200);

    clock += 10 * 60_000;
    expect((await task(never)).body.state).toBe('PROCESSING');
    expect((await logs(never)).body.luauExecutionSessionTaskLogs[0].messages).toEqual(['started']);
    expect((await task(lost.body.path)).status).toBe(404);
    expect((await task(held)).body.state).toBe('PROCESSING');
    expect((await logs(held)).body.luauExecutionSessionTaskLogs[0].messages).toEqual(['held']);
    expect(roblox.luau.tasks().find((info) => info.path === lost.body.path)).toMatchObject({
      marker: 'lose',
      apiKey: WRITE_KEY,
    });

    expect(roblox.luau.release(held)).toBe(1);
    expect((await task(held)).body).toMatchObject({ state: 'COMPLETE', output: { results: ['released'] } });
    expect((await task(never)).body.state).toBe('PROCESSING');
  });

  it('answers the next requests with an injected failure', async () => {
    roblox.luau.failNext(2, 503);
    expect(await create(place, { script: 'return 1' })).toMatchObject({ status: 503, body: { code: 'UNAVAILABLE' } });
    expect((await create(place, { script: 'return 1' })).status).toBe(503);
    roblox.luau.failNext(1);
    expect(await create(place, { script: 'return 1' })).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    const created = await create(place, { script: 'return 1' });
    expect(created.status).toBe(200);
    await roblox.luau.scriptRan(created.body.path);
  });

  it('tells the next task created, and lists every task with the key that created it', async () => {
    const next = roblox.luau.nextTask((info) => info.placeId === place);
    const created = await create(place, { script: 'return "listed"' });
    const told = await next;
    expect(told).toMatchObject({ path: created.body.path, state: 'QUEUED', apiKey: WRITE_KEY, version: 7 });
    await roblox.luau.scriptRan(told.path);
    clock += 100;
    expect(roblox.luau.tasks().find((info) => info.path === told.path)).toMatchObject({
      state: 'COMPLETE',
      script: 'return "listed"',
      results: ['listed'],
      createTime: expect.any(String),
    });
  });

  it('keeps the Ban API to keys with its scope', async () => {
    const restrictions = (key: string) => call('GET', `/cloud/v2/universes/${UNIVERSE}/user-restrictions`, { key });
    expect((await restrictions(BAN_KEY)).status).toBe(200);
    expect((await restrictions(READ_KEY)).status).toBe(200);
    expect(await restrictions(WRITE_KEY)).toMatchObject({
      status: 403,
      body: { message: 'The API key does not have the required scope universe.user-restriction:read' },
    });
  });
});

describe('the fake Luau Execution API limits', () => {
  let clock = Date.parse('2025-06-01T12:00:00.000Z');
  let roblox: Fake;
  let base = '';
  const { create, task, logs } = client(() => base);

  beforeAll(async () => {
    roblox = fakeOpenCloud({ now: () => clock });
    base = await roblox.start();
    roblox.addKey(WRITE_KEY, UNIVERSE, [`${LUAU_EXECUTION_SCOPE}:write`]);
    roblox.luau.addPlace(UNIVERSE, '1');
    roblox.luau.addPlace(UNIVERSE, '2');
  });
  afterAll(() => roblox.stop());

  it("counts each endpoint per key owner in a minute, says so in Roblox's headers and answers 429 past it", async () => {
    // Lost tasks never run: this test is about the counting only.
    const lose = () => create('1', { script: '--@fake:lose' });
    for (let remaining = 4; remaining >= 0; remaining--) {
      clock += 1000;
      const created = await lose();
      expect(created.status).toBe(200);
      expect(created.headers.get('x-ratelimit-limit')).toBe('5, 5;w=60');
      expect(created.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      expect(created.headers.get('x-ratelimit-reset')).toBe('60');
    }
    const refused = await lose();
    expect(refused).toMatchObject({ status: 429, body: { code: 'RESOURCE_EXHAUSTED' } });
    // The first of the five leaves the minute 56 s from now (they were a second apart).
    expect(refused.headers.get('retry-after')).toBe('56');
    clock += 56_000;
    expect((await lose()).status).toBe(200);

    roblox.luau.setLimits({ readsPerMinute: 2, logReadsPerMinute: 1, retryAfter: false });
    const path = roblox.luau.tasks()[0]!.path;
    expect((await task(path)).status).toBe(404);
    expect((await task(path)).headers.get('x-ratelimit-remaining')).toBe('0');
    const overReads = await task(path);
    expect(overReads.status).toBe(429);
    expect(overReads.headers.get('retry-after')).toBeNull();
    expect((await logs(path)).headers.get('x-ratelimit-limit')).toBe('1, 1;w=60');
    expect((await logs(path)).status).toBe(429);

    expect(roblox.luau.stats()).toMatchObject({
      creates: 7,
      reads: 3,
      logReads: 2,
      refused429: 3,
      overLimit: 3,
      maxCreatesInAnyMinute: 5,
    });
  });

  it('refuses a create past the unfinished tasks a place may have, until one ends', async () => {
    clock += 120_000;
    roblox.luau.setLimits({ createsPerMinute: 100, unfinishedPerPlace: 2, retryAfter: true });
    const before = roblox.luau.stats();
    const first = await create('2', { script: '--@fake:hold\nreturn 1' });
    const second = await create('2', { script: 'return 2' });
    expect(await create('2', { script: 'return 3' })).toMatchObject({
      status: 429,
      body: { code: 'RESOURCE_EXHAUSTED', message: 'Too many unfinished tasks for this place' },
    });
    // Another place has room of its own.
    const elsewhere = await create('1', { script: 'return 4' });
    expect(elsewhere.status).toBe(200);
    await Promise.all([first, second, elsewhere].map((created) => roblox.luau.scriptRan(created.body.path)));

    clock += 1000;
    // The second is done; the held one is not, so there is room for one.
    expect((await task(second.body.path)).body.state).toBe('COMPLETE');
    const third = await create('2', { script: 'return 5' });
    expect(third.status).toBe(200);
    expect((await create('2', { script: 'return 6' })).status).toBe(429);
    roblox.luau.release();
    expect((await task(first.body.path)).body.state).toBe('COMPLETE');
    await roblox.luau.scriptRan(third.body.path);

    const after = roblox.luau.stats();
    expect(after.maxUnfinishedPerPlace).toBe(2);
    expect(after.overLimit - before.overLimit).toBe(2);
  });
});

describe('the fake Luau Execution API on real time', () => {
  const roblox = fakeOpenCloud();
  let base = '';
  const { create, task, logs } = client(() => base);

  beforeAll(async () => {
    base = await roblox.start();
    roblox.addKey(WRITE_KEY, UNIVERSE, [`${LUAU_EXECUTION_SCOPE}:write`]);
    roblox.luau.addPlace(UNIVERSE, '1');
  });
  afterAll(() => roblox.stop());

  /** Reads the task until it reaches a final state, answering every state it was seen in. */
  async function pollUntilDone(path: string) {
    const seen: string[] = [];
    for (let poll = 0; poll < 200; poll++) {
      const { body } = await task(path);
      if (seen.at(-1) !== body.state) seen.push(body.state);
      if (body.state === 'COMPLETE' || body.state === 'FAILED') return { seen, body };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`The task never ended: ${seen.join(', ')}`);
  }

  it('moves a task on by itself, with the default timing', async () => {
    const created = await create('1', { script: 'print("hello")\nreturn "done"' });
    // The sandbox's first run starts its threads (seconds on a busy machine); then 100 ms of timing.
    await roblox.luau.scriptRan(created.body.path);
    const { seen, body } = await pollUntilDone(created.body.path);
    expect(body.output.results).toEqual(['done']);
    expect(seen.at(-1)).toBe('COMPLETE');
    expect((await logs(created.body.path)).body.luauExecutionSessionTaskLogs[0].messages).toEqual(['hello']);
  });
});

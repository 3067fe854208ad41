import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import type { BusEvent } from '../../platform/event-bus.ts';
import { describeEachEngine } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { cloudRunNews } from '../../../test/cloud-run-news.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const UNIVERSE = '4200000001';
const PLACE = '4200000002';
const KEY = 'rbx-cloud-run-key-1234567890abcdefghij';
const BAN_ONLY_KEY = 'rbx-ban-only-key-1234567890abcdefghijk';
/** A key of its own for the test that spends its minute's creates. */
const SLOW_KEY = 'rbx-slow-key-1234567890abcdefghijklmno';

describeEachEngine('cloud runs (Open Cloud Luau Execution)', (engine) => {
  const roblox = fakeOpenCloud({ luau: { timing: { queuedMs: 20, processingMs: 60 } } });
  let server: TestServer;

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
    roblox.addKey(BAN_ONLY_KEY, UNIVERSE);
    roblox.addKey(SLOW_KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
    roblox.luau.addPlace(UNIVERSE, PLACE, { versions: [1, 2, 3] });
    // Roblox's 5 creates a minute would make most of this suite wait; the pacing has its own test.
    roblox.luau.setLimits({ createsPerMinute: 100 });
    server = await startTestServer(engine, {
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      CLOUD_RUN_POLL_MS: '50',
      // A task unfinished past its timeout is given up on at once (the test of one that never ends).
      CLOUD_RUN_MARGIN_MS: '0',
    });
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  /** A user whose saved key may run code in Roblox, with the place set. */
  async function cloudOwner(apiKey = KEY) {
    const user = await registerUser(server);
    const saved = await server.call('PUT', '/api/open-cloud/key', {
      token: user.token,
      body: { universeId: UNIVERSE, apiKey, placeId: PLACE },
    });
    expect(saved.status).toBe(200);
    return user;
  }

  /** Every state each run was told in (on the bus, as the screens are told). */
  const news = cloudRunNews();
  const { reaches } = news;
  beforeAll(() => news.watch(server.app.services.bus));

  const run = (token: string, body: Record<string, unknown>) =>
    server.call('POST', '/api/scripts/execute', { token, body: { target: 'cloud', ...body } });

  it('runs code in Roblox from the API: queued, then its logs, return values and output in the run', async () => {
    const alice = await cloudOwner();
    const lines: string[] = [];
    const stop = server.app.services.bus.subscribe((event: BusEvent) => {
      if (event.type === 'execution:logs') lines.push(...event.lines.map((l) => l.message));
    });
    const answer = await run(alice.token, {
      code: 'print("hello from Roblox")\nwarn("careful")\nreturn 7, { coins = 3 }',
      timeoutSeconds: 30,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ target: 'cloud', pending: true, success: true, cloudState: 'waiting' });
    const id: string = answer.body.executionId;
    await reaches(id, ['succeeded', 'failed']);
    stop();

    const detail = await server.call('GET', `/api/executions/${id}`, { token: alice.token });
    expect(detail.body).toMatchObject({
      target: 'cloud',
      status: 'succeeded',
      cloudState: 'succeeded',
      output: 'hello from Roblox\nWarning: careful',
      cloud: {
        state: 'succeeded',
        universeId: UNIVERSE,
        placeId: PLACE,
        timeoutSeconds: 30,
        returnValues: [7, { coins: 3 }],
        errorCode: null,
      },
    });
    expect(detail.body.cloud.taskPath).toMatch(/^universes\/4200000001\/places\/4200000002\//);
    expect(detail.body.cloud.logs.map((line: { type: string }) => line.type)).toEqual(['output', 'warning']);
    // The lines were told as they were read, each once.
    expect(lines).toEqual(['hello from Roblox', 'careful']);
    const [task] = roblox.luau.tasks().filter((t) => t.script.includes('hello from Roblox'));
    expect(task?.timeout).toBe('30s');

    // The Runs page lists it as a cloud run, ended.
    const listed = await server.call('GET', '/api/executions?target=cloud', { token: alice.token });
    expect(listed.body.runs).toEqual([expect.objectContaining({ id, cloudState: 'succeeded', status: 'succeeded' })]);
  });

  it('keeps a line with characters text cannot hold, made safe, and ends the run (PostgreSQL refuses NUL)', async () => {
    const alice = await cloudOwner();
    const answer = await run(alice.token, { code: 'print("nul" .. string.char(0) .. "here")' });
    const id: string = answer.body.executionId;
    await reaches(id, ['succeeded', 'failed']);
    const detail = await server.call('GET', `/api/executions/${id}`, { token: alice.token });
    expect(detail.body).toMatchObject({ status: 'succeeded', output: 'nul\uFFFDhere' });
  });

  it("keeps Roblox's error code and message, naming the line", async () => {
    const alice = await cloudOwner();
    const answer = await run(alice.token, { code: 'local a = 1\nlocal b = 2\nerror("boom")' });
    const id: string = answer.body.executionId;
    await reaches(id, ['succeeded', 'failed']);
    const detail = await server.call('GET', `/api/executions/${id}`, { token: alice.token });
    expect(detail.body.status).toBe('failed');
    expect(detail.body.cloud.errorCode).toBe('SCRIPT_ERROR');
    expect(detail.body.cloud.errorMessage).toContain(':3: boom');
    expect(detail.body.error).toMatch(/^SCRIPT_ERROR: .*:3: boom/);

    // Roblox's own timeout ends the run timed out, with Roblox's code.
    const endless = await run(alice.token, { code: 'while true do end' });
    await reaches(endless.body.executionId, ['timed_out', 'failed', 'succeeded']);
    const timedOut = await server.call('GET', `/api/executions/${endless.body.executionId}`, { token: alice.token });
    expect(timedOut.body).toMatchObject({
      status: 'failed',
      cloud: { state: 'timed_out', errorCode: 'DEADLINE_EXCEEDED' },
    });
  });

  it('runs a pinned version of the place when one is set', async () => {
    const alice = await cloudOwner();
    const pinned = await server.call('PUT', '/api/open-cloud/place', {
      token: alice.token,
      body: { placeId: PLACE, placeVersion: '2' },
    });
    expect(pinned.body).toMatchObject({ placeId: PLACE, placeVersion: '2' });
    const created = roblox.luau.nextTask((task) => task.script.includes('pinned'));
    await run(alice.token, { code: 'print("pinned")' });
    expect((await created).version).toBe(2);
  });

  it('refuses before anything is sent: no key, a key without the scope, no place, a bad timeout', async () => {
    const creates = roblox.luau.stats().creates;
    const nobody = await registerUser(server);
    const noKey = await run(nobody.token, { code: 'print(1)' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toBe(CLOUD_RUN_ERRORS.noKey);

    const banOnly = await cloudOwner(BAN_ONLY_KEY);
    const noScope = await run(banOnly.token, { code: 'print(1)' });
    expect(noScope.status).toBe(400);
    expect(noScope.body.error).toBe(CLOUD_RUN_ERRORS.missingScope(LUAU_EXECUTION_WRITE));

    const noPlace = await registerUser(server);
    await server.call('PUT', '/api/open-cloud/key', {
      token: noPlace.token,
      body: { universeId: UNIVERSE, apiKey: KEY },
    });
    const placeless = await run(noPlace.token, { code: 'print(1)' });
    expect(placeless.status).toBe(400);
    expect(placeless.body.error).toBe(CLOUD_RUN_ERRORS.noPlace);

    const alice = await cloudOwner();
    for (const timeoutSeconds of [0, 301, 1.5, '60']) {
      const refused = await run(alice.token, { code: 'print(1)', timeoutSeconds });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('timeoutSeconds');
    }
    // Whoever may run code in Roblox is told where it would run, or what is missing.
    expect((await server.call('GET', '/api/open-cloud/place', { token: banOnly.token })).body).toEqual({
      universeId: UNIVERSE,
      placeId: PLACE,
      placeVersion: null,
      ready: false,
      reason: CLOUD_RUN_ERRORS.missingScope(LUAU_EXECUTION_WRITE),
    });
    expect((await server.call('GET', '/api/open-cloud/place', { token: alice.token })).body).toMatchObject({
      placeId: PLACE,
      ready: true,
      reason: null,
    });
    // Nothing reached Roblox, and no run was recorded for the refusals.
    expect(roblox.luau.stats().creates).toBe(creates);
    const runs = await server.call('GET', '/api/executions?target=cloud', { token: alice.token });
    expect(runs.body.runs).toEqual([]);
  });

  it("passes Roblox's refusal of a wrong place on, and marks the run with it", async () => {
    const alice = await cloudOwner();
    await server.call('PUT', '/api/open-cloud/place', { token: alice.token, body: { placeId: '999999' } });
    const id: string = (await run(alice.token, { code: 'print(1)' })).body.executionId;
    await reaches(id, ['failed']);
    const detail = await server.call('GET', `/api/executions/${id}`, { token: alice.token });
    expect(detail.body.cloud.errorCode).toBe('NOT_FOUND');
    expect(detail.body.cloud.errorMessage).toContain('Place not found');
  });

  it('fails a task Roblox loses, and one that never ends past its timeout and margin', async () => {
    const alice = await cloudOwner();
    const lostId: string = (await run(alice.token, { code: '--@fake:lose\nprint(1)' })).body.executionId;
    await reaches(lostId, ['failed']);
    const lostRun = await server.call('GET', `/api/executions/${lostId}`, { token: alice.token });
    expect(lostRun.body.cloud.errorMessage).toContain(CLOUD_RUN_ERRORS.lost);

    const endless = await run(alice.token, { code: '--@fake:never-ends\nprint("still going")', timeoutSeconds: 1 });
    const endlessId: string = endless.body.executionId;
    await reaches(endlessId, ['timed_out']);
    const endlessRun = await server.call('GET', `/api/executions/${endlessId}`, { token: alice.token });
    expect(endlessRun.body).toMatchObject({
      status: 'failed',
      error: `DEADLINE_EXCEEDED: ${CLOUD_RUN_ERRORS.didNotFinish}`,
      cloud: { state: 'timed_out', errorCode: 'DEADLINE_EXCEEDED' },
    });
  });

  it('cancels a run still waiting in Moonrelay, and refuses to cancel one Roblox took', async () => {
    const alice = await cloudOwner(SLOW_KEY);
    roblox.luau.setLimits({ createsPerMinute: 1 });
    try {
      const held = await run(alice.token, { code: '--@fake:hold\nprint("held for cancel")' });
      const heldId: string = held.body.executionId;
      await reaches(heldId, ['queued', 'running']);
      // Roblox said no creates are left this minute: the next run waits in Moonrelay's queue.
      const waiting = await run(alice.token, { code: 'print("never sent")' });
      const cancelled = await server.call('POST', `/api/executions/${waiting.body.executionId}/cancel`, {
        token: alice.token,
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        status: 'failed',
        cloudState: 'cancelled',
        cloud: { state: 'cancelled' },
      });
      expect(roblox.luau.tasks().some((task) => task.script.includes('never sent'))).toBe(false);

      const refused = await server.call('POST', `/api/executions/${heldId}/cancel`, { token: alice.token });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(CLOUD_RUN_ERRORS.notCancellable);
      // Another user's run is not theirs to cancel (nor to know of).
      const bob = await registerUser(server);
      const foreign = await server.call('POST', `/api/executions/${heldId}/cancel`, { token: bob.token });
      expect(foreign.status).toBe(404);

      roblox.luau.release();
      await reaches(heldId, ['succeeded']);
    } finally {
      roblox.luau.setLimits({ createsPerMinute: 100 });
    }
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, type CloudRunState } from '@moonrelay/contract/cloud-runs';
import { describeEachEngine } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { cloudOwner as addCloudOwner, cloudRunNews } from '../../../test/cloud-run-news.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

const UNIVERSE = '4400000001';

/**
 * Cloud runs across a restart of the instance (`stop()` then `start()`: the same database and port,
 * as a deployed server going down and coming back). Every run's task is a row in the database, so
 * what Roblox holds is followed to its end after the start, what waited in Moonrelay's queue is
 * sent then, and a create whose answer was lost is never sent again: each run ends once.
 */
describeEachEngine('cloud runs across a restart', (engine) => {
  const roblox = fakeOpenCloud({ luau: { limits: { createsPerMinute: 100 }, timing: { queuedMs: 20 } } });
  let server: TestServer;
  let owners = 0;

  beforeAll(async () => {
    const base = await roblox.start();
    server = await startTestServer(engine, {
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      CLOUD_RUN_POLL_MS: '50',
      // One unfinished task per place: a second run of the place waits in Moonrelay's queue.
      OPEN_CLOUD_UNFINISHED_PER_PLACE: '1',
    });
    watch();
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  const cloudOwner = () => {
    owners += 1;
    return addCloudOwner(server, roblox, {
      universeId: UNIVERSE,
      keyName: `restart-key-${owners}`,
      placeId: String(4400000100 + owners),
    });
  };

  /**
   * What the screens were told of each run, over every start of the instance: its states, its
   * lines, its results. Each start has a bus of its own, so `watch` listens again after one.
   */
  const news = cloudRunNews();
  const { told, lines, results, once, ended } = news;
  const watch = () => news.watch(server.app.services.bus);
  const reached = (id: string, state: CloudRunState) => once(() => (told.get(id) ?? []).includes(state));

  /** Stops the instance (running `during` once the stop has begun) and starts it again. */
  async function restart(during?: () => void) {
    const stopped = server.stop();
    during?.();
    await stopped;
    await server.start();
    watch();
  }

  async function queue(token: string, code: string): Promise<string> {
    const answer = await server.call('POST', '/api/scripts/execute', {
      token,
      body: { target: 'cloud', code, timeoutSeconds: 60 },
    });
    expect(answer.body).toMatchObject({ target: 'cloud', pending: true });
    return answer.body.executionId as string;
  }

  const tasksOf = (script: string) => roblox.luau.tasks().filter((task) => task.script === script);
  const detailOf = async (token: string, id: string) =>
    (await server.call('GET', `/api/executions/${id}`, { token })).body;

  it('follows a task Roblox holds across the restart to its end, once, its lines each kept and told once', async () => {
    const owner = await cloudOwner();
    // Its three lines appear half a second apart while Roblox holds the task.
    roblox.luau.setTiming({ processingMs: 1_500 });
    const code = '--@fake:hold\nprint("first")\nprint("second")\nprint("third")\nreturn "done"';
    const id = await queue(owner.token, code);
    await once(() => (lines.get(id) ?? []).includes('first'));

    await restart();
    // The stopped instance left the task to the next start: it is running still, and Roblox has it once.
    expect(told.get(id)).not.toContain('succeeded');
    expect(tasksOf(code)).toHaveLength(1);
    roblox.luau.release();
    await ended(id);

    expect(results.get(id)).toEqual([true]);
    expect(told.get(id)!.filter((state) => state === 'succeeded')).toEqual(['succeeded']);
    expect(lines.get(id)).toEqual(['first', 'second', 'third']);
    const detail = await detailOf(owner.token, id);
    expect(detail).toMatchObject({
      status: 'succeeded',
      output: 'first\nsecond\nthird',
      cloud: { state: 'succeeded', returnValues: ['done'] },
    });
    expect(detail.cloud.logs.map((line: { message: string }) => line.message)).toEqual(['first', 'second', 'third']);
    expect(tasksOf(code)).toHaveLength(1);
  });

  it('sends a run that waited in Moonrelay’s queue during the stop after the start, once', async () => {
    const owner = await cloudOwner();
    roblox.luau.setTiming({ processingMs: 100 });
    const holding = '--@fake:hold\nprint("holding the place")';
    const first = await queue(owner.token, holding);
    await reached(first, 'running');
    const waitingCode = 'print("waited through the restart")\nreturn 2';
    const waiting = await queue(owner.token, waitingCode);
    // The place has its one unfinished task: the second run waits in Moonrelay's queue, saying why.
    await expect
      .poll(async () => (await detailOf(owner.token, waiting)).cloud.waitingReason, { timeout: 15_000 })
      .toBe(`Waiting for Roblox: 1 unfinished tasks in place ${owner.placeId}, its limit`);

    await restart();
    expect(tasksOf(waitingCode)).toEqual([]);
    // Once the held task ends, the waiting run is sent: by the started instance, once.
    roblox.luau.release();
    await Promise.all([ended(first), ended(waiting)]);

    expect(results.get(first)).toEqual([true]);
    expect(results.get(waiting)).toEqual([true]);
    expect(lines.get(waiting)).toEqual(['waited through the restart']);
    expect(await detailOf(owner.token, waiting)).toMatchObject({
      status: 'succeeded',
      cloud: { state: 'succeeded', returnValues: [2], waitingReason: null },
    });
    expect(tasksOf(waitingCode)).toHaveLength(1);
    expect(tasksOf(holding)).toHaveLength(1);
  });

  it('fails a run whose create answer was lost as the instance stopped, as unknown, and never sends it again', async () => {
    const owner = await cloudOwner();
    roblox.luau.setTiming({ processingMs: 100 });
    // Roblox takes the task, but its answer is kept back: Moonrelay's create call is out.
    const held = roblox.luau.holdCreates();
    const lostCode = 'print("created, never heard of")';
    const lost = await queue(owner.token, lostCode);
    await held;
    expect(await detailOf(owner.token, lost)).toMatchObject({ cloud: { state: 'creating' } });

    // The instance stops with the call out; the answer never arrives (the connection drops).
    await restart(() => roblox.luau.dropCreates());
    expect(await detailOf(owner.token, lost)).toMatchObject({
      status: 'failed',
      error: `UNKNOWN: ${CLOUD_RUN_ERRORS.createUnknown}`,
      cloud: { state: 'failed', errorCode: 'UNKNOWN', errorMessage: CLOUD_RUN_ERRORS.createUnknown, taskPath: null },
    });

    // The started instance follows the owner (a next run is sent and ends) and never sends the lost one again.
    const nextCode = 'print("the next run")';
    const next = await queue(owner.token, nextCode);
    await ended(next);
    expect(results.get(next)).toEqual([true]);
    expect(tasksOf(lostCode)).toHaveLength(1);
    expect(roblox.luau.tasks().filter((task) => task.apiKey === owner.apiKey)).toHaveLength(2);
  });

  it('keeps the answer of a create still out when the instance stops, and follows its task after the start, once', async () => {
    const owner = await cloudOwner();
    roblox.luau.setTiming({ processingMs: 100 });
    const held = roblox.luau.holdCreates();
    const code = 'print("answered while stopping")\nreturn 4';
    const id = await queue(owner.token, code);
    await held;

    // The stop waits for the create call (it is never cut); Roblox answers meanwhile.
    await restart(() => roblox.luau.releaseCreates());
    await ended(id);
    expect(results.get(id)).toEqual([true]);
    expect(lines.get(id)).toEqual(['answered while stopping']);
    expect(await detailOf(owner.token, id)).toMatchObject({
      status: 'succeeded',
      cloud: { state: 'succeeded', returnValues: [4] },
    });
    expect(tasksOf(code)).toHaveLength(1);
  });
});

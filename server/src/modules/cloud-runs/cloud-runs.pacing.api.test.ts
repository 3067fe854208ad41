import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, type CloudRunState } from '@moonrelay/contract/cloud-runs';
import { describeEachEngine } from '../../../test/engines.ts';
import { fakeOpenCloud, type FakeLuauStats } from '../../../test/fake-open-cloud.ts';
import { cloudOwner as addCloudOwner, cloudRunNews } from '../../../test/cloud-run-news.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

const UNIVERSE = '4300000001';
const ENDED: CloudRunState[] = ['succeeded', 'failed', 'timed_out', 'cancelled'];

/**
 * Cloud runs within Roblox's limits, against the fake over real HTTP: 5 creates per window (a
 * 1-second window here, Roblox's minute made short) and 10 unfinished tasks per place. Moonrelay
 * learns the budget from the headers of Roblox's first answer and makes its calls one at a time
 * until then, so it is never refused for going over a limit; 429 storms without Retry-After and
 * Roblox being unavailable (503) only delay the runs; a create answered 500 (Roblox may have made the
 * task) is never sent again. Every run ends once, and its task was created at most once.
 */
describeEachEngine('cloud runs paced by Roblox’s limits', (engine) => {
  // Tasks run 2 s: at 5 creates a second, ten pile up in the place before the first ends.
  const roblox = fakeOpenCloud({
    luau: {
      limits: { createsPerMinute: 5, windowMs: 1_000, unfinishedPerPlace: 10 },
      timing: { queuedMs: 50, processingMs: 2_000 },
    },
  });
  let server: TestServer;
  /** Each test's owner has a key (an owner at Roblox) and a place of its own. */
  let owners = 0;

  beforeAll(async () => {
    const base = await roblox.start();
    server = await startTestServer(engine, {
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      CLOUD_RUN_POLL_MS: '50',
    });
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  const cloudOwner = () => {
    owners += 1;
    return addCloudOwner(server, roblox, {
      universeId: UNIVERSE,
      keyName: `pacing-key-${owners}`,
      placeId: String(4300000100 + owners),
    });
  };

  /** Every state each run was told in, its result events and its lines, as the screens are told. */
  const news = cloudRunNews();
  const { told, results, lines, ended } = news;
  beforeAll(() => news.watch(server.app.services.bus));

  /** Queues every script at once: truly parallel HTTP calls, each answered queued. */
  async function queueAll(token: string, codes: string[]): Promise<string[]> {
    const answers = await Promise.all(
      codes.map((code) =>
        server.call('POST', '/api/scripts/execute', { token, body: { target: 'cloud', code, timeoutSeconds: 60 } }),
      ),
    );
    for (const answer of answers) expect(answer.body).toMatchObject({ target: 'cloud', pending: true });
    return answers.map((answer) => answer.body.executionId as string);
  }

  /**
   * Each run ended succeeded once (one end told, one result), with its own line and return value;
   * Roblox has exactly one task per run, created with the run's own script.
   */
  async function eachSucceededOnce(owner: { token: string; apiKey: string }, ids: string[], codes: string[]) {
    await Promise.all(ids.map(ended));
    for (const [index, id] of ids.entries()) {
      expect(told.get(id)!.filter((state) => ENDED.includes(state))).toEqual(['succeeded']);
      expect(results.get(id)).toEqual([true]);
      expect(lines.get(id)).toEqual([`run ${index}`]);
      const detail = await server.call('GET', `/api/executions/${id}`, { token: owner.token });
      expect(detail.body).toMatchObject({
        status: 'succeeded',
        output: `run ${index}`,
        cloud: { state: 'succeeded', returnValues: [index], waitingReason: null },
      });
      expect(detail.body.cloud.logs.map((line: { message: string }) => line.message)).toEqual([`run ${index}`]);
    }
    const scripts = roblox.luau
      .tasks()
      .filter((task) => task.apiKey === owner.apiKey)
      .map((task) => task.script);
    expect(scripts.toSorted()).toEqual(codes.toSorted());
  }

  const codesOf = (count: number) => Array.from({ length: count }, (_, i) => `print("run ${i}")\nreturn ${i}`);
  const delta = (before: FakeLuauStats) => {
    const after = roblox.luau.stats();
    return {
      creates: after.creates - before.creates,
      refused429: after.refused429 - before.refused429,
      overLimit: after.overLimit - before.overLimit,
    };
  };

  /**
   * The reason the next run to go (the oldest in Moonrelay's queue) gives in its detail while it
   * waits; null while none waits or it moved on meanwhile.
   */
  async function nextWaitingReason(token: string, ownerId: string): Promise<string | null> {
    const next = await server.app.database.db
      .selectFrom('cloudTasks')
      .select('executionId')
      .where('ownerId', '=', ownerId)
      .where('phase', '=', 'waiting')
      .orderBy('seq')
      .executeTakeFirst();
    if (!next) return null;
    const detail = await server.call('GET', `/api/executions/${next.executionId}`, { token });
    return detail.body.cloud.state === 'waiting' ? detail.body.cloud.waitingReason : null;
  }

  it('runs 30 runs queued at once within 5 creates a window and 10 unfinished tasks per place, each once', async () => {
    const owner = await cloudOwner();
    const before = roblox.luau.stats();
    const codes = codesOf(30);
    const ids = await queueAll(owner.token, codes);

    // While runs wait, the next to go says why: Roblox's limit of new tasks, then (ten tasks
    // unfinished in the place) the place's limit. Each holds for a second or so at a time, again
    // and again until the last runs are sent.
    const reason = () => nextWaitingReason(owner.token, owner.user.id);
    await expect
      .poll(reason, { timeout: 20_000, interval: 100 })
      .toMatch(/^Waiting for Roblox: its limit of new tasks a minute \(the next at .+\)$/);
    await expect
      .poll(reason, { timeout: 20_000, interval: 100 })
      .toBe(`Waiting for Roblox: 10 unfinished tasks in place ${owner.placeId}, its limit`);

    await eachSucceededOnce(owner, ids, codes);
    const stats = roblox.luau.stats();
    expect(stats.maxUnfinishedPerPlace).toBeLessThanOrEqual(10);
    expect(stats.maxUnfinishedPerPlace).toBe(10);
    // Moonrelay calls one at a time until Roblox's first answer states the budget, then keeps under
    // it, and counts the place's unfinished tasks from its own rows (never fewer than Roblox's):
    // no call was over a limit, and every create sent was a task made (30 calls, no 429).
    expect(delta(before)).toEqual({ creates: 30, refused429: 0, overLimit: 0 });
    expect(stats.maxCreatesInAnyWindow).toBeLessThanOrEqual(5);
  });

  it('ends every run once through a storm of 429s without Retry-After', async () => {
    const owner = await cloudOwner();
    // Tasks that end at once: this test is about the refusals, not the place's limit.
    roblox.luau.setTiming({ processingMs: 100 });
    roblox.luau.setLimits({ retryAfter: false });
    try {
      const before = roblox.luau.stats();
      const codes = codesOf(5);
      // Roblox refuses the next four calls (whatever they are) with a bare 429: no Retry-After, no
      // x-ratelimit headers. Moonrelay backs off, doubling its wait per refusal of the same call.
      roblox.luau.failNext(4, 429);
      const ids = await queueAll(owner.token, codes);
      await eachSucceededOnce(owner, ids, codes);
      expect(delta(before)).toMatchObject({ refused429: 4, overLimit: 0 });
    } finally {
      roblox.luau.setLimits({ retryAfter: true });
      roblox.luau.setTiming({ processingMs: 2_000 });
    }
  });

  it('ends every run once through Roblox being unavailable (503), sending a create again where Roblox took none', async () => {
    const owner = await cloudOwner();
    roblox.luau.setTiming({ processingMs: 100 });
    try {
      const before = roblox.luau.stats();
      const codes = codesOf(5);
      // The next six calls fail (creates, reads, log reads alike): a 503 means Roblox took nothing,
      // so sending that create again makes the one task.
      roblox.luau.failNext(6, 503);
      const ids = await queueAll(owner.token, codes);
      await eachSucceededOnce(owner, ids, codes);
      expect(delta(before)).toMatchObject({ refused429: 0, overLimit: 0 });
    } finally {
      roblox.luau.setTiming({ processingMs: 2_000 });
    }
  });

  it('does not send again a create Roblox answered 500 (it may have made the task): the run ends unknown', async () => {
    const owner = await cloudOwner();
    const code = 'print("answered 500")';
    roblox.luau.failNext(1, 500);
    const answer = await server.call('POST', '/api/scripts/execute', {
      token: owner.token,
      body: { code, target: 'cloud' },
    });
    const id: string = answer.body.executionId;
    await ended(id);
    const run = await server.call('GET', `/api/executions/${id}`, { token: owner.token });
    expect(run.body.cloud).toMatchObject({ state: 'failed', errorCode: 'UNKNOWN' });
    expect(run.body.cloud.errorMessage).toContain(CLOUD_RUN_ERRORS.createUnknown);
    expect(roblox.luau.tasks().filter((task) => task.script === code)).toHaveLength(0);
  });
});

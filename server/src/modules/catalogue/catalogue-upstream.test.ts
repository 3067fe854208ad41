import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisPacer } from '../../platform/redis/redis-pacer.ts';
import { startRedis } from '../../../test/instances.ts';
import { CATALOGUE_CALLER_MAX_WAITING, createCatalogueUpstream, UpstreamError } from './catalogue-upstream.ts';

/** A virtual clock: sleeping moves it on at once, so pacing and backoff are checked without waiting. */
function virtualClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** fetch answering with `answer(callNumber)`, recording the clock at each call. */
function stubFetch(clock: { now(): number }, answer: (n: number) => Response) {
  const calls: number[] = [];
  vi.stubGlobal('fetch', async () => {
    calls.push(clock.now());
    return answer(calls.length);
  });
  return calls;
}

const ok = () => new Response('{"result":{"scripts":[]}}', { status: 200 });

afterEach(() => vi.unstubAllGlobals());

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('catalogue upstream calls', () => {
  it('starts calls at least the minimum interval apart, in turn', async () => {
    // Sleeping moves the clock on only once the calls already started have been made, as real time would.
    const clock = virtualClock();
    const sleep = (ms: number) => new Promise<void>((resolve) => setImmediate(() => resolve(clock.sleep(ms))));
    const calls = stubFetch(clock, ok);
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 60, now: clock.now, sleep });
    const started = clock.now();
    await Promise.all([1, 2, 3, 4].map((n) => upstream.get(`http://x/${n}`, 'application/json', 1_000)));
    expect(calls.map((at) => at - started)).toEqual([0, 60, 120, 180]);
    // A quiet while later, the next call goes at once.
    clock.advance(80);
    const before = clock.now();
    await upstream.get('http://x/5', 'application/json', 1_000);
    expect(calls[4]).toBe(before);
  });

  it('refuses a call that would wait more than 10 s for its turn', async () => {
    const clock = { now: () => 0, sleep: () => new Promise<void>(() => {}) };
    stubFetch(clock, ok);
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 1_000, ...clock });
    // Eleven calls queue (turns at 0 ... 10 s); the twelfth would wait 11 s.
    for (let i = 0; i < 11; i += 1) void upstream.get('http://x', 'application/json', 1_000);
    const refused = await failure(upstream.get('http://x', 'application/json', 1_000));
    expect(refused.kind).toBe('busy');
    expect(refused.retryAfterMs).toBe(11_000);
    expect(upstream.stats().refused).toBe(1);
  });

  it("caps one user's waiting calls with their own refusal, while another user's call still gets a place", async () => {
    const clock = { now: () => 0, sleep: () => new Promise<void>(() => {}) };
    stubFetch(clock, ok);
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 1_000, ...clock });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // The first call is made at once; the next ones wait for their turn.
    await upstream.get('http://x/a', 'application/json', 1_000, 'user-a');
    for (let i = 0; i < CATALOGUE_CALLER_MAX_WAITING; i += 1) {
      void upstream.get(`http://x/a${i}`, 'application/json', 1_000, 'user-a');
    }
    await turn();
    expect(upstream.stats().refused).toBe(0);
    const refused = await failure(upstream.get('http://x/a-more', 'application/json', 1_000, 'user-a'));
    expect(refused.kind).toBe('busy');
    expect(refused.retryAfterMs).toBeGreaterThan(0);

    void upstream.get('http://x/b', 'application/json', 1_000, 'user-b').catch(() => {});
    await turn();
    expect(upstream.stats().refused).toBe(1);
  });

  it("gives a user with nothing waiting a place even when others' calls fill the next 10 s", async () => {
    const clock = { now: () => 0, sleep: () => new Promise<void>(() => {}) };
    stubFetch(clock, ok);
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 1_000, ...clock });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // Many users, each within their own cap, fill every turn of the next 10 s.
    for (let i = 0; i < 11; i += 1) void upstream.get(`http://x/${i}`, 'application/json', 1_000, `user-${i % 4}`);
    await turn();
    const refused = await failure(upstream.get('http://x/more', 'application/json', 1_000, 'user-0'));
    expect(refused.kind).toBe('busy');

    void upstream.get('http://x/newcomer', 'application/json', 1_000, 'newcomer').catch(() => {});
    await turn();
    expect(upstream.stats().refused).toBe(1);
  });

  it('backs off after a 429 for its Retry-After, else 2, 4, 8 ... s; a success resets it', async () => {
    const clock = virtualClock();
    const statuses = [429, 429, 429, 200, 429];
    const calls = stubFetch(clock, (n) =>
      n === 1
        ? new Response('', { status: 429, headers: { 'retry-after': '3' } })
        : statuses[n - 1] === 429
          ? new Response('', { status: 429 })
          : ok(),
    );
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 0, ...clock });
    const get = () => upstream.get('http://x', 'application/json', 1_000);

    expect((await failure(get())).retryAfterMs).toBe(3_000);
    // Within the backoff nothing is sent.
    clock.advance(2_999);
    expect((await failure(get())).kind).toBe('busy');
    expect(calls).toHaveLength(1);
    clock.advance(1);
    expect((await failure(get())).retryAfterMs).toBe(4_000); // second 429 in a row, no header
    clock.advance(4_000);
    expect((await failure(get())).retryAfterMs).toBe(8_000);
    clock.advance(8_000);
    await get();
    expect((await failure(get())).retryAfterMs).toBe(2_000);
    expect(upstream.stats()).toMatchObject({ calls: 5, rateLimited: 4, refused: 1 });
  });

  it('reports 404, other errors and oversized answers by kind', async () => {
    const clock = virtualClock();
    const answers = [
      new Response('nope', { status: 404 }),
      new Response('down', { status: 503 }),
      new Response('x'.repeat(2_000), { status: 200 }),
    ];
    stubFetch(clock, (n) => answers[n - 1]!);
    const upstream = createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs: 0, ...clock });
    const get = () => upstream.get('http://x', 'text/plain', 1_000);
    expect((await failure(get())).kind).toBe('not-found');
    expect((await failure(get())).kind).toBe('unavailable');
    expect((await failure(get())).kind).toBe('too-large');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    expect((await failure(get())).kind).toBe('unavailable');
    expect(upstream.stats().failed).toBe(2);
  });
});

/** Two instances of the scale-out mode: two upstreams sharing one pacer in a private redis-server. */
describe('catalogue upstream calls across instances', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let client: Redis;
  let pacerName = 0;
  beforeAll(async () => {
    redis = await startRedis();
    // Quick to give up, so the outage case does not wait on reconnects.
    client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    client.on('error', () => {});
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  const instances = (minIntervalMs: number) => {
    const errors: unknown[] = [];
    pacerName += 1;
    const pacer = createRedisPacer(client, `test-${pacerName}`);
    /**
     * Each reserved start as this process can place it: Redis picks the start within the call, so it
     * lies between the call's start and end (plus the wait it answered), whenever timers then fire.
     */
    const slots: { earliest: number; latest: number }[] = [];
    const recording = {
      ...pacer,
      async reserve(intervalMs: number, maxWaitMs: number) {
        const before = performance.now();
        const wait = await pacer.reserve(intervalMs, maxWaitMs);
        if (wait !== null) slots.push({ earliest: before + wait, latest: performance.now() + wait });
        return wait;
      },
    };
    const shared = { pacer: recording, onError: (e: unknown) => errors.push(e) };
    const make = () => createCatalogueUpstream({ timeoutMs: 5_000, minIntervalMs, shared });
    return { a: make(), b: make(), errors, slots };
  };

  it("starts the two instances' calls at least the interval apart, together", async () => {
    const calls = stubFetch({ now: () => performance.now() }, ok);
    const { a, b, errors, slots } = instances(150);
    const get = (upstream: typeof a, n: number) => upstream.get(`http://x/${n}`, 'application/json', 1_000);
    await Promise.all([1, 2, 3].flatMap((n) => [get(a, n), get(b, n)]));
    expect(calls).toHaveLength(6);
    expect(slots).toHaveLength(6);
    // The starts Redis handed out, in order: each at least the interval after the one before. Each
    // instance alone would hand its first calls of A and B the same start (a gap near 0). Measured on
    // the reservations, not on when the calls' timers fired: a busy machine fires timers late.
    const ordered = [...slots].sort((x, y) => x.earliest + x.latest - (y.earliest + y.latest));
    // (Less a millisecond: Redis counts its clock in whole milliseconds.)
    for (const [i, slot] of ordered.slice(1).entries())
      expect(slot.latest - ordered[i]!.earliest).toBeGreaterThanOrEqual(149);
    expect(errors).toEqual([]);
  });

  it('a 429 answered to one instance pauses the other one too', async () => {
    const calls = stubFetch(
      { now: () => performance.now() },
      () => new Response('', { status: 429, headers: { 'retry-after': '2' } }),
    );
    const { a, b } = instances(0);
    expect((await failure(a.get('http://x', 'application/json', 1_000))).retryAfterMs).toBe(2_000);
    const refused = await failure(b.get('http://x', 'application/json', 1_000));
    expect(refused.kind).toBe('busy');
    expect(refused.retryAfterMs).toBeGreaterThan(1_500);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(2_000);
    expect(calls).toHaveLength(1);
  });

  it('goes on pacing on its own, and says so, while Redis is down', async () => {
    const calls = stubFetch({ now: () => performance.now() }, ok);
    const { a, errors } = instances(100);
    await redis.stop();
    try {
      await a.get('http://x/1', 'application/json', 1_000);
      await a.get('http://x/2', 'application/json', 1_000);
      expect(calls).toHaveLength(2);
      expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(80);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      redis = await startRedis(redis.port);
    }
  });
});

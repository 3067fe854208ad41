import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import { createRedisPacer } from '../../platform/redis/redis-pacer.ts';
import { catalogueScript, fakeCatalogue } from '../../../test/fake-catalogue.ts';
import { startRedis } from '../../../test/instances.ts';
import { createCatalogueService, type CatalogueDependencies } from './catalogue.service.ts';

/**
 * Stale-while-revalidate and the circuit breaker, against the local stand-in for ScriptBlox over
 * real HTTP, with a clock the test moves on (freshness and the breaker's cool-down). A hanging
 * catalogue holds its requests until the test releases them, so "answered at once" is checked as
 * "answered while the catalogue still holds the request", never by timing.
 */

const CACHE_MS = 5 * 60_000;
const COOL_DOWN_MS = 30_000;
const FAILURES = 3;

function clock() {
  let now = Date.parse('2026-03-10T12:00:00.000Z');
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

describe('script catalogue: stale-while-revalidate and the circuit breaker', () => {
  const upstream = fakeCatalogue();
  let apiUrl: string;
  const services: ReturnType<typeof createCatalogueService>[] = [];

  beforeAll(async () => {
    apiUrl = `${await upstream.start()}/api`;
  });
  afterEach(async () => {
    upstream.setFailing('no');
    upstream.setDown(false);
    upstream.releaseHeld();
    await Promise.all(services.splice(0).map((service) => service.idle()));
  });
  afterAll(() => upstream.stop());

  function service(time: ReturnType<typeof clock>, dependencies: CatalogueDependencies = {}) {
    const created = createCatalogueService(
      {
        apiUrl,
        siteUrl: 'https://scriptblox.test',
        // Long enough never to fire: a hanging call ends when the test releases it.
        timeoutMs: 60_000,
        cacheMs: CACHE_MS,
        minIntervalMs: 0,
        breaker: { failureThreshold: FAILURES, coolDownMs: COOL_DOWN_MS },
      },
      { now: time.now, ...dependencies },
    );
    services.push(created);
    return created;
  }
  const calls = (prefix = '/api/') => upstream.apiHits(prefix).length;

  it('answers a stale copy while the catalogue holds the refresh, with one refresh per key', async () => {
    const time = clock();
    const catalogue = service(time);
    const fetchedAt = new Date(time.now()).toISOString();
    const first = await catalogue.fetch(1, 20);
    expect(first.stale).toBeUndefined();

    time.advance(CACHE_MS + 1);
    upstream.setFailing('hang');
    const before = calls();
    const stale = await catalogue.fetch(1, 20);
    expect(stale).toEqual({ result: first.result, stale: { fetchedAt } });
    // Three more requests while the refresh is held: all stale, no second call.
    const meanwhile = await Promise.all([1, 2, 3].map(() => catalogue.fetch(1, 20)));
    await upstream.waitForHeld(1);
    expect(meanwhile.every((answer) => answer.stale?.fetchedAt === fetchedAt)).toBe(true);
    expect(upstream.held()).toBe(1);
    expect(calls()).toBe(before + 1);
    expect(catalogue.stats()).toMatchObject({ staleServed: 4, refreshes: 1 });

    // The refresh lands: the next answer is fresh again, without a call.
    upstream.releaseHeld();
    await catalogue.idle();
    expect((await catalogue.fetch(1, 20)).stale).toBeUndefined();
    expect(calls()).toBe(before + 1);
  });

  it('answers a script source stale the same way', async () => {
    const time = clock();
    const catalogue = service(time);
    const hello = catalogueScript('Hello Moonrelay');
    expect(await catalogue.source(hello._id)).toEqual({ _id: hello._id, code: hello.code, executorFunctions: [] });
    time.advance(CACHE_MS + 1);
    upstream.setFailing('hang');
    const stale = await catalogue.source(hello._id);
    expect(stale.code).toBe(hello.code);
    expect(stale.stale).toBeDefined();
    await upstream.waitForHeld(1);
    expect(upstream.held()).toBe(1);
  });

  it('opens after repeated 5xx: no more calls, 503 with Retry-After or the stale copy; a probe closes it', async () => {
    const time = clock();
    const { logger, lines } = capturedLogger();
    const catalogue = service(time, { logger });
    const kept = await catalogue.trending();
    // The copy is stale by the time the breaker opens.
    time.advance(CACHE_MS + 1);

    upstream.setFailing('500');
    const before = calls();
    for (let n = 1; n <= FAILURES; n += 1) {
      const failed = await refusal(catalogue.search(`term ${n}`, 1, 20));
      expect(failed.status).toBe(502);
    }
    expect(calls()).toBe(before + FAILURES);
    expect(catalogue.breakerState()).toBe('open');

    // Open: nothing reaches the catalogue; no copy -> 503 with Retry-After, a copy -> served stale.
    const open = await refusal(catalogue.search('another term', 1, 20));
    expect(open.status).toBe(503);
    expect(open.message).toBe(CATALOGUE_ERRORS.unavailable);
    expect(open.details.headers).toEqual({ 'Retry-After': String(COOL_DOWN_MS / 1000) });
    const stale = await catalogue.trending();
    expect(stale.result).toEqual(kept.result);
    expect(stale.stale).toBeDefined();
    await catalogue.idle();
    expect(calls()).toBe(before + FAILURES);

    // Half-open after the cool-down: one probe goes; the others are refused while it is held.
    time.advance(COOL_DOWN_MS);
    upstream.setFailing('hang');
    const probe = catalogue.search('probe', 1, 20);
    await upstream.waitForHeld(1);
    expect((await refusal(catalogue.search('while probing', 1, 20))).status).toBe(503);
    expect(calls()).toBe(before + FAILURES + 1);
    upstream.setFailing('no');
    upstream.releaseHeld();
    expect((await probe).result.scripts).toEqual([]);
    expect(catalogue.breakerState()).toBe('closed');
    await catalogue.search('after', 1, 20);
    expect(calls()).toBe(before + FAILURES + 2);

    // One line when the catalogue went away and one when it came back; failures are one line each, no stack.
    const messages = lines.map((line) => line.msg);
    expect(
      messages.filter((msg) => msg === 'script catalogue unreachable: calls paused, answering from cache'),
    ).toHaveLength(1);
    expect(messages.filter((msg) => msg === 'script catalogue reachable again')).toHaveLength(1);
    const failures = lines.filter((line) => line.msg === 'script catalogue call failed');
    expect(failures).toHaveLength(FAILURES);
    expect(failures[0]).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('answered 500') });
    expect(lines.some((line) => 'err' in line || JSON.stringify(line).includes('    at '))).toBe(false);
  });

  it('opens on unreachable connections too, and a failing probe opens it again', async () => {
    const time = clock();
    const catalogue = service(time);
    upstream.setDown(true);
    for (let n = 1; n <= FAILURES; n += 1) await refusal(catalogue.search(`down ${n}`, 1, 20));
    expect(catalogue.breakerState()).toBe('open');
    time.advance(COOL_DOWN_MS);
    const before = calls();
    expect((await refusal(catalogue.search('probe', 1, 20))).status).toBe(502);
    expect(calls()).toBe(before + 1);
    expect(catalogue.breakerState()).toBe('open');
    expect((await refusal(catalogue.search('still open', 1, 20))).status).toBe(503);
    expect(calls()).toBe(before + 1);
  });

  it('never opens on 404s: a missing script is an answer, not a failure', async () => {
    const time = clock();
    const catalogue = service(time);
    const before = calls();
    for (let n = 0; n < FAILURES * 2; n += 1) {
      const missing = await refusal(catalogue.source(`64f0c0de00000000000f${String(n).padStart(4, '0')}`));
      expect(missing.status).toBe(404);
    }
    expect(catalogue.breakerState()).toBe('closed');
    // Each missing script asked /script/{id} and /script/raw/{id}; the next call still goes.
    expect(calls()).toBe(before + FAILURES * 4);
    await catalogue.trending();
    expect(calls()).toBe(before + FAILURES * 4 + 1);
  });
});

describe('script catalogue breaker shared through Redis (scale-out)', () => {
  const upstream = fakeCatalogue();
  let redisServer: Awaited<ReturnType<typeof startRedis>>;
  let redis: Redis;
  let apiUrl: string;

  beforeAll(async () => {
    apiUrl = `${await upstream.start()}/api`;
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await redisServer?.stop();
    await upstream.stop();
  });

  it("one instance's opening stops the other's calls at once", async () => {
    const time = clock();
    const pause = createRedisPacer(redis, `catalogue-breaker-${Date.now()}`);
    const instance = () =>
      createCatalogueService(
        {
          apiUrl,
          siteUrl: 'https://scriptblox.test',
          timeoutMs: 60_000,
          cacheMs: CACHE_MS,
          minIntervalMs: 0,
          breaker: { failureThreshold: FAILURES, coolDownMs: COOL_DOWN_MS },
        },
        {
          now: time.now,
          sharedBreaker: {
            store: { open: (ms) => pause.pause(ms), openFor: () => pause.pausedFor() },
            onError: (error) => {
              throw error;
            },
          },
        },
      );
    const [first, second] = [instance(), instance()];
    upstream.setFailing('500');
    for (let n = 1; n <= FAILURES; n += 1) await refusal(first.search(`shared ${n}`, 1, 20));
    // The opening reaches Redis in the background; wait for it there.
    while ((await pause.pausedFor()) === 0) await new Promise((resolve) => setImmediate(resolve));
    const before = calls();
    const refused = await refusal(second.search('other instance', 1, 20));
    expect(refused.status).toBe(503);
    expect(Number(refused.details.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(upstream.apiHits().length).toBe(before);
    expect(second.breakerState()).toBe('open');
    upstream.setFailing('no');
  });

  const calls = () => upstream.apiHits().length;
});

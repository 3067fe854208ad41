import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATALOGUE_ERRORS } from '@moonrelay/contract/messages';
import { describeOnSQLite } from '../../../test/engines.ts';
import {
  CATALOGUE_SCRIPTS,
  catalogueScript,
  fakeCatalogue,
  OVERSIZED_SCRIPT_ID,
} from '../../../test/fake-catalogue.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const SITE = 'https://scriptblox.test';
const UNAVAILABLE = { error: 'Script catalogue unavailable' };

/**
 * The catalogue proxy over real HTTP against a local stand-in for ScriptBlox (server/test/fake-catalogue.ts):
 * normalised answers, the cache, the shared upstream call, the pace of upstream calls, the timeout, a 429
 * backoff, stale answers while the catalogue is down, and the 4xx answers to bad input.
 */
describeOnSQLite('script catalogue proxy', (engine) => {
  // A loaded two-core machine can take over 400 ms to answer from the local fake: the timeout is
  // 3 s, and the one case that must time out answers after 10 s.
  const upstream = fakeCatalogue({ slowMs: 10_000 });
  let server: TestServer;
  /** The same app, caching nothing (every answer revalidates): what the stale fallback serves. */
  let uncached: TestServer;
  let token: string;
  let apiKey: string;
  let uncachedToken: string;

  beforeAll(async () => {
    const base = await upstream.start();
    const settings = {
      SCRIPTBLOX_API_URL: `${base}/api`,
      SCRIPTBLOX_SITE_URL: SITE,
      SCRIPTBLOX_TIMEOUT_MS: '3000',
      SCRIPTBLOX_MIN_INTERVAL_MS: '150',
    };
    server = await startTestServer(engine, settings);
    uncached = await startTestServer(engine, { ...settings, SCRIPTBLOX_CACHE_SECONDS: '0' });
    const user = await registerUser(server);
    token = user.token;
    apiKey = user.user.apiKey;
    uncachedToken = (await registerUser(uncached)).token;
  });
  afterAll(async () => {
    await server?.close();
    await uncached?.close();
    await upstream.stop();
  });

  const get = (path: string, on: TestServer = server, credential = on === server ? token : uncachedToken) =>
    on.call('GET', path, { token: credential });
  const upstreamCalls = (prefix?: string) => upstream.apiHits(prefix).length;

  it('browses a page in one shape: both spellings, absolute images, executor functions found', async () => {
    const res = await get('/api/scriptblox/fetch?page=1&max=20');
    expect(res.status).toBe(200);
    const { scripts, totalPages, nextPage } = res.body.result;
    expect(scripts).toHaveLength(20);
    expect({ totalPages, nextPage }).toEqual({ totalPages: 3, nextPage: 2 });

    // Entry 0 spells isUniversal/isPatched/key and game._id with a /images/ path.
    const hello = catalogueScript('Hello Moonrelay');
    expect(scripts[0]).toEqual({
      _id: hello._id,
      title: 'Hello Moonrelay',
      game: { _id: String(hello.gameId), name: hello.gameName, imageUrl: `${SITE}${hello.imageUrl}`, universeId: null },
      image: null,
      views: 1234,
      verified: true,
      isUniversal: false,
      isPatched: false,
      keySystem: false,
      createdAt: hello.createdAt,
      executorFunctions: [],
    });
    // Entry 1 spells universal/patched/keySystem, has no game id and an absolute image.
    expect(scripts[1]).toMatchObject({
      title: 'Infinite Yield Admin',
      isUniversal: true,
      game: { _id: null, imageUrl: CATALOGUE_SCRIPTS[1]!.imageUrl },
      executorFunctions: ['game:HttpGet', 'getgenv', 'LocalPlayer'],
    });
    // Entry 2 (even) carries isPatched and key; entry 5 (odd) game.gameId.
    expect(scripts[2]).toMatchObject({ title: 'Mega Hub Long Script', isPatched: true, keySystem: true });
    expect(scripts[5].game._id).toBe(String(CATALOGUE_SCRIPTS[5]!.gameId));
    expect(scripts[5].game.imageUrl).toMatch(/^https:\/\/tr\.rbxcdn\.com\//);
    expect(scripts[3]).toMatchObject({ isUniversal: true, game: { _id: null, name: 'Universal Script' } });
    // The code itself is not part of a listing; the source endpoint has it.
    expect(scripts[0]).not.toHaveProperty('script');

    const last = await get('/api/scriptblox/fetch?page=3');
    expect(last.body.result.scripts).toHaveLength(5);
    expect(last.body.result.nextPage).toBeNull();
    const small = await get('/api/scriptblox/fetch?page=2&max=5');
    expect(small.body.result.scripts.map((s: { _id: string }) => s._id)).toEqual(
      CATALOGUE_SCRIPTS.slice(5, 10).map((s) => s._id),
    );
    // page and max default to 1 and 20, so the bare path is page 1 again: served from the cache.
    const before = upstreamCalls();
    expect((await get('/api/scriptblox/fetch')).body.result.scripts).toHaveLength(20);
    expect(upstreamCalls()).toBe(before);
  });

  it('searches (search answers carry only totalPages: the next page is worked out) and answers an empty page', async () => {
    const res = await get('/api/scriptblox/search?q=Arsenal&page=1&max=5');
    expect(res.status).toBe(200);
    const arsenal = CATALOGUE_SCRIPTS.filter((s) => s.title.includes('Arsenal'));
    expect(res.body.result.scripts.map((s: { title: string }) => s.title)).toEqual(
      arsenal.slice(0, 5).map((s) => s.title),
    );
    expect(res.body.result).toMatchObject({ totalPages: Math.ceil(arsenal.length / 5), nextPage: 2 });
    expect(upstream.hits.at(-1)?.query).toEqual({ q: 'Arsenal', page: '1', max: '5' });

    const none = await get('/api/scriptblox/search?q=nothing%20matches%20this');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ result: { scripts: [], totalPages: 0, nextPage: null } });
  });

  it('answers trending as one page', async () => {
    const res = await get('/api/scriptblox/trending');
    expect(res.status).toBe(200);
    expect(res.body.result.scripts).toHaveLength(6);
    expect(res.body.result.scripts[0].title).toBe('Infinite Yield Admin');
    expect(res.body.result).toMatchObject({ totalPages: 1, nextPage: null });
  });

  it('keeps answers 5 minutes and shares one upstream call among concurrent requests', async () => {
    const before = upstreamCalls('/api/script/search');
    const served = () => {
      const stats = server.app.services.catalogue.stats();
      return stats.freshHits + stats.coalesced;
    };
    const servedBefore = served();
    const concurrent = await Promise.all(Array.from({ length: 8 }, () => get('/api/scriptblox/search?q=Jailbreak')));
    expect(concurrent.every((res) => res.status === 200)).toBe(true);
    expect(new Set(concurrent.map((res) => res.text)).size).toBe(1);
    expect(upstreamCalls('/api/script/search')).toBe(before + 1);
    for (let i = 0; i < 20; i += 1) await get('/api/scriptblox/search?q=Jailbreak');
    expect(upstreamCalls('/api/script/search')).toBe(before + 1);
    // All but the first of the 28 answers came from the cache or the call already under way.
    expect(served() - servedBefore).toBe(27);
  });

  it('starts upstream calls at least the minimum interval apart', async () => {
    const from = upstream.hits.length;
    const answers = await Promise.all(
      ['Fly', 'ESP', 'Hitbox', 'Teleports'].map((q) => get(`/api/scriptblox/search?q=${q}`)),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const times = upstream.hits.slice(from).map((hit) => hit.at);
    expect(times).toHaveLength(4);
    // Each call starts 150 ms after the one before (catalogue-upstream.test.ts checks the exact
    // spacing on a virtual clock). Seen from the fake, one arrival may be late on a busy machine and
    // bunch up with the next, so this checks what survives that: four calls sent at once arrive
    // spread over at least two of the intervals, not together.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(300);
  });

  it('answers 502 when the catalogue is too slow (timeout), answers malformed JSON, or cannot be reached', async () => {
    const slow = await get('/api/scriptblox/search?q=slow');
    expect(slow.status).toBe(502);
    expect(slow.body).toEqual(UNAVAILABLE);
    // Answered by the timeout: the catalogue's own answer is still to come.
    expect(upstream.slowPending()).toBe(1);

    const malformed = await get('/api/scriptblox/search?q=malformed');
    expect(malformed.status).toBe(502);
    expect(malformed.body).toEqual(UNAVAILABLE);

    upstream.setDown(true);
    try {
      const down = await get('/api/scriptblox/search?q=unreachable');
      expect(down.status).toBe(502);
      expect(down.body).toEqual(UNAVAILABLE);
      // What is cached still answers.
      expect((await get('/api/scriptblox/trending')).status).toBe(200);
    } finally {
      upstream.setDown(false);
    }
  });

  it('backs off after a 429: no upstream call until Retry-After has passed', async () => {
    const limited = await get('/api/scriptblox/search?q=ratelimited');
    expect(limited.status).toBe(503);
    expect(limited.body).toEqual({ error: 'Script catalogue is busy. Please try again shortly.' });
    expect(limited.headers.get('retry-after')).toBe('1');
    const before = upstreamCalls();
    const meanwhile = await get('/api/scriptblox/search?q=Brookhaven');
    expect(meanwhile.status).toBe(503);
    expect(upstreamCalls()).toBe(before);
    expect(server.app.services.catalogue.stats().upstream.refused).toBeGreaterThanOrEqual(1);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await get('/api/scriptblox/search?q=Brookhaven');
    expect(after.status).toBe(200);
    expect(upstreamCalls()).toBe(before + 1);
  });

  it('answers the last answer at once, marked stale, while the catalogue fails; 502 for what it never had', async () => {
    const catalogue = uncached.app.services.catalogue;
    const fetchedBefore = Date.now();
    const fresh = await get('/api/scriptblox/fetch?page=2', uncached);
    expect(fresh.status).toBe(200);
    expect(fresh.body.stale).toBeUndefined();
    upstream.setDown(true);
    try {
      const stale = await get('/api/scriptblox/fetch?page=2', uncached);
      expect(stale.status).toBe(200);
      expect(stale.body.result).toEqual(fresh.body.result);
      const fetchedAt = Date.parse(stale.body.stale.fetchedAt);
      expect(fetchedAt).toBeGreaterThanOrEqual(fetchedBefore);
      expect(fetchedAt).toBeLessThanOrEqual(Date.now());
      await catalogue.idle();
      expect((await get('/api/scriptblox/fetch?page=3', uncached)).body).toEqual(UNAVAILABLE);
    } finally {
      upstream.setDown(false);
    }
    // A 429 is hidden the same way.
    upstream.rateLimitNext(1);
    const limited = await get('/api/scriptblox/fetch?page=2', uncached);
    expect(limited.body.result).toEqual(fresh.body.result);
    expect(limited.body.stale).toBeDefined();
    await catalogue.idle();
    expect(catalogue.stats()).toMatchObject({ staleServed: 2, refreshes: 2 });
  });

  it('answers a script source from /script/{id}, or from /script/raw/{id} when that lacks the code; cached', async () => {
    const hello = catalogueScript('Hello Moonrelay');
    const res = await get(`/api/scriptblox/script/${hello._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _id: hello._id, code: hello.code, executorFunctions: [] });

    const long = catalogueScript('Mega Hub Long Script');
    const before = upstream.hits.length;
    const longRes = await get(`/api/scriptblox/script/${long._id}`);
    expect(longRes.body.code).toBe(long.code);
    expect(longRes.body.code.length).toBeGreaterThan(10_000);
    expect(upstream.hits.slice(before).map((hit) => hit.path)).toEqual([
      `/api/script/${long._id}`,
      `/api/script/raw/${long._id}`,
    ]);
    expect((await get(`/api/scriptblox/script/${long._id}`)).body.code).toBe(long.code);
    expect(upstream.hits.length).toBe(before + 2);

    const admin = await get(`/api/scriptblox/script/${catalogueScript('Infinite Yield Admin')._id}`, server, apiKey);
    expect(admin.status).toBe(200);
    expect(admin.body.executorFunctions).toEqual(['game:HttpGet', 'getgenv', 'LocalPlayer']);

    const missing = await get('/api/scriptblox/script/64f0c0de0000000000000fff');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Catalogue script not found' });

    // A source over 1 MiB is refused as too large for Moonrelay, not passed on or answered 502.
    const oversized = await get(`/api/scriptblox/script/${OVERSIZED_SCRIPT_ID}`);
    expect(oversized.status).toBe(422);
    expect(oversized.body).toEqual({ error: CATALOGUE_ERRORS.scriptTooLarge });
  });

  it('answers 400 for bad input and 401 without a session or key', async () => {
    const cases: [string, string][] = [
      ['/api/scriptblox/fetch?page=0', 'page must be a whole number from 1'],
      ['/api/scriptblox/fetch?page=abc', 'page must be a whole number from 1'],
      ['/api/scriptblox/fetch?page=1.5', 'page must be a whole number from 1'],
      ['/api/scriptblox/fetch?max=21', 'max must be a whole number from 1 to 20'],
      ['/api/scriptblox/fetch?max=0', 'max must be a whole number from 1 to 20'],
      ['/api/scriptblox/search', 'q (the search term) is required'],
      ['/api/scriptblox/search?q=%20%20', 'q (the search term) is required'],
      [`/api/scriptblox/search?q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
      ['/api/scriptblox/script/not$an$id', 'id must be a catalogue script id (letters, digits, _ and - only)'],
    ];
    const before = upstreamCalls();
    for (const [path, error] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toBe(error);
    }
    expect(upstreamCalls()).toBe(before);
    for (const path of ['/api/scriptblox/fetch', '/api/scriptblox/trending', '/api/scriptblox/search?q=a']) {
      expect((await get(path, server, '')).status).toBe(401);
    }
  });
});

import type { CataloguePage, CatalogueSource } from '@moonrelay/contract/catalogue';
import {
  CATALOGUE_BREAKER_COOL_DOWN_MS,
  CATALOGUE_BREAKER_FAILURES,
  CATALOGUE_STALE_MAX_MS,
  SCRIPT_CODE_MAX_BYTES,
} from '@moonrelay/contract/constants';
import { CATALOGUE_ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import { createAnswerCache, type AnswerCache } from './answer-cache.ts';
import { codeOfScriptAnswer, MalformedAnswerError, normalizePage } from './catalogue-normalize.ts';
import { createCatalogueUpstream, UpstreamError, type UpstreamOptions } from './catalogue-upstream.ts';
import { createCircuitBreaker, type SharedBreakerStore } from './circuit-breaker.ts';
import { findExecutorFunctions } from './executor-functions.ts';

/**
 * The script catalogue proxy (docs/decisions/011-catalogue-proxy.md). Every answer is cached by
 * the upstream URL it came from, fresh for `cacheMs` (5 minutes) and kept up to a day.
 *
 * Stale-while-revalidate: an answer older than `cacheMs` is answered at once, marked `stale` with
 * when it was fetched, and refreshed in the background (one refresh per key at a time), so a slow
 * or failing catalogue never makes a user wait when there is a copy. Only a request with no copy
 * waits for the catalogue; concurrent ones for one URL share one call. With no copy, a failure
 * answers 502 'Script catalogue unavailable' (503 with Retry-After while the circuit breaker is
 * open, or 'busy' while backing off a 429).
 *
 * A circuit breaker (circuit-breaker.ts) stops calling the catalogue after several failures in a
 * row, until a probe after a cool-down succeeds; in the scale-out mode it is shared through Redis.
 */

export interface CatalogueConfig {
  apiUrl: string;
  siteUrl: string;
  timeoutMs: number;
  cacheMs: number;
  minIntervalMs: number;
  /** Failures in a row that open the circuit breaker, and how long it stays open. */
  breaker?: { failureThreshold: number; coolDownMs: number };
}

export interface CatalogueDependencies {
  logger?: Logger;
  /** Shared pacing of upstream calls (Redis, scale-out mode). */
  shared?: UpstreamOptions['shared'];
  /** The circuit breaker's state shared by every instance (Redis, scale-out mode). */
  sharedBreaker?: { store: SharedBreakerStore; onError(error: unknown): void };
  /** The clock for freshness and the breaker's cool-down (tests move it on). */
  now?: () => number;
}

export interface CatalogueStats {
  /** Answers served from a fresh cache entry, without calling the catalogue. */
  freshHits: number;
  /** Answers that had no copy and waited for the catalogue. */
  misses: number;
  /** Answers that joined a call already under way for the same URL. */
  coalesced: number;
  /** Answers served from a copy older than the cache time (refreshed in the background). */
  staleServed: number;
  /** Background refreshes started for stale copies. */
  refreshes: number;
  /** Misses answered with an error (no usable entry). */
  errors: number;
  upstream: ReturnType<ReturnType<typeof createCatalogueUpstream>['stats']>;
}

type Page = CataloguePage['result'];

/** An answer and, when it is a stale copy, when the catalogue gave it. */
interface Served<T> {
  value: T;
  stale?: { fetchedAt: string };
}

const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** The JSON of one script carries its code, escaped, and its other fields. */
const SCRIPT_JSON_MAX_BYTES = Math.ceil(SCRIPT_CODE_MAX_BYTES * 1.5) + 64 * 1024;

export function createCatalogueService(config: CatalogueConfig, dependencies: CatalogueDependencies = {}) {
  const { logger } = dependencies;
  const now = dependencies.now ?? Date.now;
  const breaker = createCircuitBreaker({
    failureThreshold: config.breaker?.failureThreshold ?? CATALOGUE_BREAKER_FAILURES,
    coolDownMs: config.breaker?.coolDownMs ?? CATALOGUE_BREAKER_COOL_DOWN_MS,
    now,
    shared: dependencies.sharedBreaker,
    onStateChange: (state, { failures, openForMs }) => {
      if (state === 'open') {
        logger?.warn(
          { breaker: 'catalogue', failures, retryInSeconds: Math.ceil(openForMs / 1000) },
          'script catalogue unreachable: calls paused, answering from cache',
        );
      } else if (state === 'closed') logger?.info({ breaker: 'catalogue' }, 'script catalogue reachable again');
    },
  });
  const upstream = createCatalogueUpstream({
    timeoutMs: config.timeoutMs,
    minIntervalMs: config.minIntervalMs,
    shared: dependencies.shared,
    breaker,
  });
  const pages = createAnswerCache<Page>({
    maxEntries: 1_000,
    maxWeight: 64 * 1024 * 1024,
    staleMaxMs: CATALOGUE_STALE_MAX_MS,
  });
  const sources = createAnswerCache<Omit<CatalogueSource, 'stale'>>({
    maxEntries: 1_000,
    maxWeight: 64 * 1024 * 1024,
    staleMaxMs: CATALOGUE_STALE_MAX_MS,
  });
  const inFlight = new Map<string, Promise<unknown>>();
  const counts = { freshHits: 0, misses: 0, coalesced: 0, staleServed: 0, refreshes: 0, errors: 0 };

  function toAppError(error: unknown): AppError {
    if (error instanceof AppError) return error;
    if (error instanceof UpstreamError) {
      const retryAfter = { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) };
      if (error.kind === 'busy') return new AppError(503, CATALOGUE_ERRORS.busy, { headers: retryAfter });
      if (error.kind === 'circuit-open')
        return new AppError(503, CATALOGUE_ERRORS.unavailable, { headers: retryAfter });
      if (error.kind === 'not-found') return new AppError(404, CATALOGUE_ERRORS.scriptNotFound);
      if (error.kind === 'too-large') return new AppError(422, CATALOGUE_ERRORS.scriptTooLarge);
    }
    return new AppError(502, CATALOGUE_ERRORS.unavailable);
  }

  /** One line with the reason: an upstream failure is expected, its stack says nothing to an operator. */
  function logFailure(key: string, error: unknown, served: 'stale' | 'error') {
    const kind =
      error instanceof UpstreamError ? error.kind : error instanceof MalformedAnswerError ? 'malformed' : 'error';
    // While the breaker is open every refusal is the same; its opening was logged once.
    if (kind === 'circuit-open' || kind === 'not-found') return;
    const reason = error instanceof Error ? error.message : String(error);
    const line = { cacheKey: key, kind, reason, served };
    if (kind === 'error') logger?.error({ ...line, err: error }, 'script catalogue call failed');
    else logger?.warn(line, 'script catalogue call failed');
  }

  /** Loads `key` once at a time (concurrent callers share the call) and keeps the answer. */
  function load<T>(cache: AnswerCache<T>, key: string, loader: () => Promise<{ value: T; weight: number }>) {
    const running = inFlight.get(key) as Promise<T> | undefined;
    if (running) return { call: running, joined: true };
    const call = (async () => {
      try {
        const { value, weight } = await loader();
        cache.set(key, value, weight, now());
        return value;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, call);
    return { call, joined: false };
  }

  /**
   * The cached answer for `key` while fresh; a stale copy at once, refreshed in the background;
   * with no copy, the catalogue's answer.
   */
  async function cached<T>(
    cache: AnswerCache<T>,
    key: string,
    caller: string | undefined,
    loader: (caller: string | undefined) => Promise<{ value: T; weight: number }>,
  ): Promise<Served<T>> {
    const entry = cache.get(key, now());
    if (entry && now() - entry.storedAt < config.cacheMs) {
      counts.freshHits += 1;
      return { value: entry.value };
    }
    if (entry) {
      counts.staleServed += 1;
      // A refresh is made for no one in particular: it does not count among the user's waiting calls.
      const { call, joined } = load(cache, key, () => loader(undefined));
      if (!joined) {
        counts.refreshes += 1;
        // A 404 or an oversized script is the catalogue's real answer: the copy goes.
        call.catch((error: unknown) => {
          if (error instanceof UpstreamError && (error.kind === 'not-found' || error.kind === 'too-large')) {
            cache.delete(key);
          }
          logFailure(key, error, 'stale');
        });
      }
      return { value: entry.value, stale: { fetchedAt: new Date(entry.storedAt).toISOString() } };
    }
    const { call, joined } = load(cache, key, () => loader(caller));
    if (joined) counts.coalesced += 1;
    else counts.misses += 1;
    try {
      return { value: await call };
    } catch (error) {
      if (!joined) {
        counts.errors += 1;
        logFailure(key, error, 'error');
      }
      throw toAppError(error);
    }
  }

  async function listAnswer(
    path: string,
    params: Record<string, string | number>,
    page: number,
    caller: string | undefined,
  ) {
    const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
    const url = `${config.apiUrl}${path}${query.size ? `?${query}` : ''}`;
    const served = await cached(pages, url, caller, async (madeFor) => {
      const body = await upstream.get(url, 'application/json', PAGE_MAX_BYTES, madeFor);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new MalformedAnswerError('the answer is not JSON');
      }
      return { value: normalizePage(parsed, config.siteUrl, page), weight: body.length };
    });
    return { result: served.value, ...(served.stale ? { stale: served.stale } : {}) };
  }

  const tooLarge = (code: string) =>
    code.length * 3 > SCRIPT_CODE_MAX_BYTES && Buffer.byteLength(code) > SCRIPT_CODE_MAX_BYTES;

  /** The source from `/script/{id}`, else from `/script/raw/{id}` (a listing may lack the code, or the JSON fail). */
  async function loadSource(id: string, caller: string | undefined): Promise<string> {
    const path = encodeURIComponent(id);
    let firstFailure: unknown;
    try {
      const body = await upstream.get(
        `${config.apiUrl}/script/${path}`,
        'application/json',
        SCRIPT_JSON_MAX_BYTES,
        caller,
      );
      const code = codeOfScriptAnswer(JSON.parse(body));
      if (code !== null) return code;
    } catch (error) {
      // Busy means no more calls now; anything else may still work through the raw endpoint.
      if (error instanceof UpstreamError && (error.kind === 'busy' || error.kind === 'too-large')) throw error;
      firstFailure = error;
    }
    try {
      const raw = await upstream.get(
        `${config.apiUrl}/script/raw/${path}`,
        'text/plain',
        SCRIPT_CODE_MAX_BYTES,
        caller,
      );
      if (raw.trim() === '') throw new UpstreamError('not-found', 'the raw source is empty');
      return raw;
    } catch (error) {
      // The raw endpoint's own 404 is the answer; otherwise the first failure says more.
      if (error instanceof UpstreamError && error.kind !== 'not-found') throw error;
      if (firstFailure instanceof UpstreamError && firstFailure.kind === 'unavailable') throw firstFailure;
      throw error;
    }
  }

  return {
    /**
     * `GET /api/scriptblox/fetch`: the catalogue's newest scripts, a page at a time. `caller` (here and
     * below) is the user asking, whose calls waiting for the catalogue are capped.
     */
    fetch(page: number, max: number, caller?: string): Promise<CataloguePage> {
      return listAnswer('/script/fetch', { page, max }, page, caller);
    },

    search(q: string, page: number, max: number, caller?: string): Promise<CataloguePage> {
      return listAnswer('/script/search', { q, page, max }, page, caller);
    },

    trending(caller?: string): Promise<CataloguePage> {
      return listAnswer('/script/trending', {}, 1, caller);
    },

    /** One script's source and the executor-only functions it calls. */
    async source(id: string, caller?: string): Promise<CatalogueSource> {
      const served = await cached(sources, `source:${id}`, caller, async (madeFor) => {
        const code = await loadSource(id, madeFor);
        if (tooLarge(code)) throw new UpstreamError('too-large', 'the source is over 1 MiB');
        return { value: { _id: id, code, executorFunctions: findExecutorFunctions(code) }, weight: code.length };
      });
      return { ...served.value, ...(served.stale ? { stale: served.stale } : {}) };
    },

    stats(): CatalogueStats {
      return { ...counts, upstream: upstream.stats() };
    },

    breakerState: () => breaker.state(),

    /** Settles once every call under way (answers and background refreshes) has ended. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

import type { CataloguePage, CatalogueSource } from '@moonrelay/contract/catalogue';
import { CATALOGUE_STALE_MAX_MS, SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';
import { CATALOGUE_ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import { createAnswerCache } from './answer-cache.ts';
import { codeOfScriptAnswer, MalformedAnswerError, normalizePage } from './catalogue-normalize.ts';
import { createCatalogueUpstream, UpstreamError, type UpstreamOptions } from './catalogue-upstream.ts';
import { findExecutorFunctions } from './executor-functions.ts';

/**
 * The script catalogue proxy (docs/decisions/011-catalogue-proxy.md). Every answer is cached for
 * `cacheMs` (5 minutes) by the upstream URL it came from; concurrent requests for one URL share one
 * call. While the catalogue fails (timeout, refusal, 5xx, a 429 backoff, an answer that is not a
 * catalogue answer), a cached answer up to a day old is served instead; with none, the call answers
 * 502 'Script catalogue unavailable' (503 'busy' with Retry-After while backing off a 429).
 */

export interface CatalogueConfig {
  apiUrl: string;
  siteUrl: string;
  timeoutMs: number;
  cacheMs: number;
  minIntervalMs: number;
}

export interface CatalogueStats {
  /** Answers served from a fresh cache entry, without calling the catalogue. */
  freshHits: number;
  /** Answers that needed the catalogue (a miss or an expired entry). */
  misses: number;
  /** Answers that joined a call already under way for the same URL. */
  coalesced: number;
  /** Misses answered with an expired entry because the catalogue failed. */
  staleServed: number;
  /** Misses answered with an error (no usable entry). */
  errors: number;
  upstream: ReturnType<ReturnType<typeof createCatalogueUpstream>['stats']>;
}

type Page = CataloguePage['result'];

const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** The JSON of one script carries its code, escaped, and its other fields. */
const SCRIPT_JSON_MAX_BYTES = Math.ceil(SCRIPT_CODE_MAX_BYTES * 1.5) + 64 * 1024;

export function createCatalogueService(config: CatalogueConfig, logger?: Logger, shared?: UpstreamOptions['shared']) {
  const upstream = createCatalogueUpstream({
    timeoutMs: config.timeoutMs,
    minIntervalMs: config.minIntervalMs,
    shared,
  });
  const pages = createAnswerCache<Page>({
    maxEntries: 1_000,
    maxWeight: 64 * 1024 * 1024,
    staleMaxMs: CATALOGUE_STALE_MAX_MS,
  });
  const sources = createAnswerCache<CatalogueSource>({
    maxEntries: 1_000,
    maxWeight: 64 * 1024 * 1024,
    staleMaxMs: CATALOGUE_STALE_MAX_MS,
  });
  const inFlight = new Map<string, Promise<unknown>>();
  const counts = { freshHits: 0, misses: 0, coalesced: 0, staleServed: 0, errors: 0 };

  function toAppError(error: unknown): AppError {
    if (error instanceof AppError) return error;
    if (error instanceof UpstreamError) {
      if (error.kind === 'busy') {
        const seconds = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
        return new AppError(503, CATALOGUE_ERRORS.busy, { headers: { 'Retry-After': seconds } });
      }
      if (error.kind === 'not-found') return new AppError(404, CATALOGUE_ERRORS.scriptNotFound);
      if (error.kind === 'too-large') return new AppError(422, CATALOGUE_ERRORS.scriptTooLarge);
    }
    return new AppError(502, CATALOGUE_ERRORS.unavailable);
  }

  /**
   * The cached answer for `key` while fresh; otherwise `load` it (one call per key at a time),
   * falling back to the expired entry when that fails.
   */
  async function cached<T>(
    cache: ReturnType<typeof createAnswerCache<T>>,
    key: string,
    load: () => Promise<{ value: T; weight: number }>,
  ): Promise<T> {
    const entry = cache.get(key);
    if (entry && Date.now() - entry.storedAt < config.cacheMs) {
      counts.freshHits += 1;
      return entry.value;
    }
    const running = inFlight.get(key) as Promise<T> | undefined;
    if (running) {
      counts.coalesced += 1;
      return running;
    }
    counts.misses += 1;
    const call = (async () => {
      try {
        const { value, weight } = await load();
        cache.set(key, value, weight);
        return value;
      } catch (error) {
        const stale = cache.get(key);
        // A 404 or an oversized script is the catalogue's real answer, not a failure to hide.
        const hideable = !(
          error instanceof UpstreamError &&
          (error.kind === 'not-found' || error.kind === 'too-large')
        );
        logger?.warn(
          { cacheKey: key, err: error, servedStale: Boolean(stale && hideable) },
          'script catalogue call failed',
        );
        if (stale && hideable) {
          counts.staleServed += 1;
          return stale.value;
        }
        counts.errors += 1;
        throw toAppError(error);
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, call);
    return call;
  }

  async function listAnswer(path: string, params: Record<string, string | number>, page: number) {
    const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
    const url = `${config.apiUrl}${path}${query.size ? `?${query}` : ''}`;
    return cached(pages, url, async () => {
      const body = await upstream.get(url, 'application/json', PAGE_MAX_BYTES);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new MalformedAnswerError('the answer is not JSON');
      }
      return { value: normalizePage(parsed, config.siteUrl, page), weight: body.length };
    });
  }

  const tooLarge = (code: string) =>
    code.length * 3 > SCRIPT_CODE_MAX_BYTES && Buffer.byteLength(code) > SCRIPT_CODE_MAX_BYTES;

  /** The source from `/script/{id}`, else from `/script/raw/{id}` (a listing may lack the code, or the JSON fail). */
  async function loadSource(id: string): Promise<string> {
    const path = encodeURIComponent(id);
    let firstFailure: unknown;
    try {
      const body = await upstream.get(`${config.apiUrl}/script/${path}`, 'application/json', SCRIPT_JSON_MAX_BYTES);
      const code = codeOfScriptAnswer(JSON.parse(body));
      if (code !== null) return code;
    } catch (error) {
      // Busy means no more calls now; anything else may still work through the raw endpoint.
      if (error instanceof UpstreamError && (error.kind === 'busy' || error.kind === 'too-large')) throw error;
      firstFailure = error;
    }
    try {
      const raw = await upstream.get(`${config.apiUrl}/script/raw/${path}`, 'text/plain', SCRIPT_CODE_MAX_BYTES);
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
    /** `GET /api/scriptblox/fetch`: the catalogue's newest scripts, a page at a time. */
    fetch(page: number, max: number): Promise<Page> {
      return listAnswer('/script/fetch', { page, max }, page);
    },

    search(q: string, page: number, max: number): Promise<Page> {
      return listAnswer('/script/search', { q, page, max }, page);
    },

    trending(): Promise<Page> {
      return listAnswer('/script/trending', {}, 1);
    },

    /** One script's source and the executor-only functions it calls. */
    source(id: string): Promise<CatalogueSource> {
      return cached(sources, `source:${id}`, async () => {
        const code = await loadSource(id);
        if (tooLarge(code)) throw new UpstreamError('too-large', 'the source is over 1 MiB');
        return { value: { _id: id, code, executorFunctions: findExecutorFunctions(code) }, weight: code.length };
      });
    },

    stats(): CatalogueStats {
      return { ...counts, upstream: upstream.stats() };
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

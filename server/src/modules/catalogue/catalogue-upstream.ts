import type { SharedPacer } from '../../platform/shared-pacer.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';

/**
 * Calls to the catalogue (ScriptBlox), kept polite. It publishes no rate limit; its community
 * clients keep to about one request a second, so calls start at least `minIntervalMs` apart (1000
 * by default) for the whole process: later calls queue for their turn, and a call that would wait
 * more than 10 s is refused at once as busy instead. A 429 stops all calls for its Retry-After, or
 * for 2, 4, 8 ... up to 60 s on repeated 429s without one. Each user may have only a few calls
 * waiting (CATALOGUE_CALLER_MAX_WAITING), so one user cannot fill the queue for everyone. Each call has `timeoutMs` (5 s) for
 * the whole answer, body included, and a size cap.
 *
 * In the scale-out mode a shared pacer (Redis) extends both rules to the whole deployment: a call
 * also reserves its start among every instance's calls, and a 429 pauses them all. Should the pacer
 * fail, calls go on under this instance's own pacing, and the failure is reported.
 *
 * A circuit breaker (circuit-breaker.ts) stands in front of it all: once the catalogue has failed
 * several times in a row, calls are refused at once ('circuit-open') until a probe gets through.
 */

/** Why an upstream call gave nothing usable; the service maps these to its answers. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'busy' | 'circuit-open' | 'not-found' | 'too-large',
    message: string,
    /** For 'busy' and 'circuit-open': how long until calls are allowed again. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

const MAX_QUEUE_WAIT_MS = 10_000;
/**
 * Calls one user may have waiting for their turn; past it, that user's next call is refused as busy
 * while everyone else's still queue. A user with nothing waiting gets a place even when the others'
 * calls fill the next 10 s, up to twice that, so one user (or a few) cannot shut the rest out.
 * Five, not fewer: the catalogue screen itself sends a few at once (a page and a search typed
 * quickly), and a person browsing must never be told the catalogue is busy because of themselves.
 */
export const CATALOGUE_CALLER_MAX_WAITING = 5;
const MAX_NEWCOMER_WAIT_MS = 2 * MAX_QUEUE_WAIT_MS;
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_MAX_MS = 60_000;

export interface UpstreamStats {
  /** Requests sent to the catalogue. */
  calls: number;
  /** Of those, answered 429. */
  rateLimited: number;
  /** Of those, failed (timeout, refused, 5xx, unreadable). */
  failed: number;
  /** Calls refused without being sent: the queue was too long, or a 429 backoff was running. */
  refused: number;
  /** Calls refused without being sent because the circuit breaker was open. */
  circuitOpen: number;
}

export interface UpstreamOptions {
  timeoutMs: number;
  minIntervalMs: number;
  shared?: { pacer: SharedPacer; onError(error: unknown): void };
  breaker?: CircuitBreaker;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Reads a body up to `maxBytes`; a longer one is cut off and reported as too large. */
async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const length = Number(response.headers.get('content-length'));
  if (length > maxBytes) {
    await response.body?.cancel();
    throw new UpstreamError('too-large', `the answer is ${length} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new UpstreamError('too-large', `the answer is over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createCatalogueUpstream(options: UpstreamOptions) {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const stats: UpstreamStats = { calls: 0, rateLimited: 0, failed: 0, refused: 0, circuitOpen: 0 };
  /** Calls take their turn one after another; each starts `minIntervalMs` after the one before. */
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  /** Waiting calls by the user they are made for; calls made for no one (refreshes) are not counted. */
  const waitingByCaller = new Map<string, number>();
  let lastStartAt = Number.NEGATIVE_INFINITY;
  let backoffUntil = 0;
  let consecutive429 = 0;

  const untilNextStart = () => lastStartAt + options.minIntervalMs - now();
  /** Asks the shared pacer, if there is one; answers `fallback` without it or when it fails. */
  async function fromShared<T, F>(ask: (pacer: SharedPacer) => Promise<T>, fallback: F): Promise<T | F> {
    if (!options.shared) return fallback;
    try {
      return await ask(options.shared.pacer);
    } catch (error) {
      options.shared.onError(error);
      return fallback;
    }
  }
  const refuse = (reason: string, retryAfterMs: number) => {
    stats.refused += 1;
    return new UpstreamError('busy', reason, retryAfterMs);
  };

  /** Waits for this call's turn, or refuses it as busy. */
  async function takeSlot(caller: string | undefined): Promise<void> {
    if (now() < backoffUntil) throw refuse('backing off after a 429', backoffUntil - now());
    if (options.shared) {
      const sharedPause = await fromShared((pacer) => pacer.pausedFor(), 0);
      if (sharedPause > 0) throw refuse('another instance is backing off after a 429', sharedPause);
    }
    const expectedWait = Math.max(0, untilNextStart()) + waiting * options.minIntervalMs;
    const callerWaiting = caller === undefined ? 0 : (waitingByCaller.get(caller) ?? 0);
    if (callerWaiting >= CATALOGUE_CALLER_MAX_WAITING)
      throw refuse('this user has too many calls waiting', expectedWait);
    const newcomer = caller !== undefined && callerWaiting === 0;
    if (expectedWait > (newcomer ? MAX_NEWCOMER_WAIT_MS : MAX_QUEUE_WAIT_MS)) {
      throw refuse('too many calls waiting', expectedWait);
    }
    waiting += 1;
    if (caller !== undefined) waitingByCaller.set(caller, callerWaiting + 1);
    const turn = queue.then(async () => {
      // A timer may fire a little early: wait until the interval has really passed.
      while (untilNextStart() > 0) await sleep(untilNextStart());
      if (options.shared) {
        const wait = await fromShared((pacer) => pacer.reserve(options.minIntervalMs, MAX_QUEUE_WAIT_MS), 0);
        if (wait === null) throw refuse("the other instances' calls fill the next 10 s", MAX_QUEUE_WAIT_MS);
        if (wait > 0) await sleep(wait);
      }
      lastStartAt = now();
    });
    // A refused turn must not stop the ones queued after it.
    queue = turn.catch(() => undefined);
    try {
      await turn;
    } finally {
      waiting -= 1;
      if (caller !== undefined) {
        const left = (waitingByCaller.get(caller) ?? 1) - 1;
        if (left > 0) waitingByCaller.set(caller, left);
        else waitingByCaller.delete(caller);
      }
    }
    // A 429 that arrived while this call waited stops it too.
    if (now() < backoffUntil) throw refuse('backing off after a 429', backoffUntil - now());
  }

  function onRateLimited(response: Response): never {
    stats.rateLimited += 1;
    consecutive429 += 1;
    const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (consecutive429 - 1));
    const wait = Math.min(BACKOFF_MAX_MS, retryAfterMs(response.headers.get('retry-after'), now()) ?? exponential);
    backoffUntil = Math.max(backoffUntil, now() + wait);
    if (options.shared) void fromShared((pacer) => pacer.pause(wait), undefined);
    void response.body?.cancel();
    throw new UpstreamError('busy', 'the catalogue answered 429', wait);
  }

  /**
   * One GET; answers the body text of a 2xx answer, or throws an UpstreamError. `caller` is the user
   * the call is made for (absent for background refreshes), whose waiting calls are capped.
   */
  async function get(url: string, accept: string, maxBytes: number, caller?: string): Promise<string> {
    const admission = options.breaker ? await options.breaker.admit() : undefined;
    if (admission && !admission.allowed) {
      stats.circuitOpen += 1;
      throw new UpstreamError('circuit-open', 'the catalogue has been failing', admission.retryAfterMs);
    }
    try {
      const body = await send(url, accept, maxBytes, caller);
      admission?.settle('success');
      return body;
    } catch (error) {
      // Only what says the catalogue is down counts against it: a 404 or an oversized answer came
      // from a live one, and 'busy' (a 429, or a call refused before it was sent) has its own backoff.
      const kind = error instanceof UpstreamError ? error.kind : 'unavailable';
      admission?.settle(kind === 'unavailable' ? 'failure' : kind === 'busy' ? 'neutral' : 'success');
      throw error;
    }
  }

  async function send(url: string, accept: string, maxBytes: number, caller: string | undefined): Promise<string> {
    await takeSlot(caller);
    stats.calls += 1;
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { accept, 'user-agent': 'Moonrelay (script catalogue proxy)' },
        redirect: 'follow',
      });
      if (response.status === 429) onRateLimited(response);
      consecutive429 = 0;
      if (response.status === 404) {
        void response.body?.cancel();
        throw new UpstreamError('not-found', `${url} answered 404`);
      }
      if (!response.ok) {
        void response.body?.cancel();
        throw new UpstreamError('unavailable', `${url} answered ${response.status}`);
      }
      return await readLimited(response, maxBytes);
    } catch (error) {
      if (error instanceof UpstreamError) {
        if (error.kind === 'unavailable') stats.failed += 1;
        throw error;
      }
      // Timeout (AbortSignal), refused connection, reset mid-body.
      stats.failed += 1;
      throw new UpstreamError('unavailable', `${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    get,
    stats: (): UpstreamStats => ({ ...stats }),
  };
}

export type CatalogueUpstream = ReturnType<typeof createCatalogueUpstream>;

import { AppError } from '../../http/app-error.ts';

/**
 * Roblox's Open Cloud user-restrictions API (the Ban API), as documented: a PATCH per user with an
 * idempotency key, the list of restrictions and the list of their logs, both paged with
 * nextPageToken. Answers are handed back as they came; what they mean is for the callers.
 */

/** What Roblox answered: its status, Retry-After in ms when given, and its body (JSON or text). */
export interface CloudAnswer {
  status: number;
  retryAfterMs: number | null;
  body: unknown;
  text: string;
  /** Roblox's rate-limit headers for the endpoint called, when it sent them. */
  rateLimit: RateLimitHeaders | null;
}

/**
 * `x-ratelimit-remaining` (calls left in the window) and `x-ratelimit-reset` (seconds until the
 * quota is full again), as Roblox's Open Cloud sends them with its answers.
 */
export interface RateLimitHeaders {
  remaining: number;
  resetMs: number;
}

function rateLimitOf(headers: Headers): RateLimitHeaders | null {
  const remaining = Number(headers.get('x-ratelimit-remaining'));
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (headers.get('x-ratelimit-remaining') === null || !Number.isFinite(remaining) || !Number.isFinite(reset))
    return null;
  return { remaining: Math.max(0, Math.floor(remaining)), resetMs: Math.max(0, Math.ceil(reset * 1000)) };
}

/** The restriction as Roblox's PATCH body and its answers carry it. */
export interface GameJoinRestriction {
  active: boolean;
  startTime?: string;
  /** "<seconds>s"; absent for a permanent ban. */
  duration?: string;
  privateReason: string;
  displayReason: string;
  excludeAltAccounts: boolean;
  inherited?: boolean;
}

export interface UserRestriction {
  path: string;
  updateTime?: string;
  user: string;
  gameJoinRestriction: GameJoinRestriction;
}

export interface UserRestrictionLog {
  user: string;
  place?: string;
  moderator?: { robloxUser?: string; gameServerScript?: unknown };
  createTime: string;
  active: boolean;
  startTime?: string;
  duration?: string;
  privateReason?: string;
  displayReason?: string;
  excludeAltAccounts?: boolean;
}

/** A 503 for a call Roblox did not answer: tried again after the minute its Retry-After says. */
export const cloudUnavailable = (message: string) => new AppError(503, message, { headers: { 'retry-after': '60' } });

/**
 * Roblox could not be asked (no connection, a timeout): the answer is unknown. `notSent` when the
 * request never left (the connection was refused), so sending it again cannot repeat it.
 */
export class CloudUnreachable extends Error {
  constructor(
    message: string,
    readonly notSent = false,
  ) {
    super(message);
  }
}

/** Connection errors that happen before a byte of the request was written. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const errorCode = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
};

/** One call may take this long; a PATCH cut off is sent again under the same idempotency key. */
const CALL_TIMEOUT_MS = 15_000;

/** Retry-After as seconds or an HTTP date, in ms. */
function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Roblox's own words for a refusal: Open Cloud v2 answers `{ code, message }`, older APIs
 * `{ errors: [{ message }] }`; otherwise the text itself.
 */
export function robloxErrorText(answer: CloudAnswer): string {
  const body = answer.body as { message?: unknown; errors?: { message?: unknown }[] } | null;
  if (body && typeof body === 'object') {
    if (typeof body.message === 'string' && body.message) return body.message;
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    if (first && typeof first.message === 'string' && first.message) return first.message;
  }
  return answer.text.trim().slice(0, 500) || `Roblox answered ${answer.status}`;
}

/** Seconds to Roblox's "86400s"; null (permanent) to no duration at all. */
export const durationText = (seconds: number | null) => (seconds === null ? undefined : `${seconds}s`);
/** Roblox's "86400s" (or "3.5s") back to whole seconds; absent is permanent (null). */
export function durationSeconds(text: string | undefined): number | null {
  if (!text) return null;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text);
  return match ? Math.round(Number(match[1])) : null;
}

/** "users/156" → "156". */
export const idOf = (resource: string | undefined) => (resource ?? '').split('/').pop() ?? '';

export type CloudMethod = 'GET' | 'PATCH' | 'POST';

/** One call to Open Cloud with the key in `x-api-key`; the answer as it came (status, body, limits). */
export function createCloudCaller(options: { baseUrl: string; now: () => number }) {
  const base = options.baseUrl.replace(/\/+$/, '');
  return async function call(
    method: CloudMethod,
    path: string,
    apiKey: string,
    init: { query?: Record<string, string>; body?: unknown; signal?: AbortSignal } = {},
  ): Promise<CloudAnswer> {
    const url = new URL(base + path);
    for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, value);
    const signals = [AbortSignal.timeout(CALL_TIMEOUT_MS), ...(init.signal ? [init.signal] : [])];
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          'x-api-key': apiKey,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const code = errorCode(error);
      throw new CloudUnreachable(
        error instanceof Error ? error.message : String(error),
        code !== undefined && NOT_SENT_CODES.has(code),
      );
    }
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text says it.
    }
    return {
      status: response.status,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), options.now()),
      body,
      text,
      rateLimit: rateLimitOf(response.headers),
    };
  };
}

export type CloudCaller = ReturnType<typeof createCloudCaller>;

export function createOpenCloudClient(options: { baseUrl: string; now: () => number }) {
  const call = createCloudCaller(options);

  const universe = (universeId: string) => `/cloud/v2/universes/${encodeURIComponent(universeId)}`;

  return {
    /**
     * What the key may do, by Roblox's API key introspection: its scopes as "scope:operation"
     * (universe.user-restriction:write, …). The answer as it came when Roblox did not say.
     */
    async introspect(apiKey: string): Promise<{ scopes: string[] } | CloudAnswer> {
      const answer = await call('POST', '/api-keys/v1/introspect', apiKey, { body: { apiKey } });
      const scopes = (answer.body as { scopes?: unknown } | null)?.scopes;
      if (answer.status !== 200 || !Array.isArray(scopes)) return answer;
      const named: string[] = [];
      for (const scope of scopes as { name?: unknown; operations?: unknown }[]) {
        if (typeof scope?.name !== 'string' || !Array.isArray(scope.operations)) continue;
        for (const operation of scope.operations)
          if (typeof operation === 'string') named.push(`${scope.name}:${operation}`);
      }
      return { scopes: named };
    },

    /** PATCH the user's game-join restriction; the idempotency key makes a resend apply once. */
    updateRestriction(
      key: { universeId: string; apiKey: string },
      robloxUserId: string,
      restriction: Omit<GameJoinRestriction, 'startTime' | 'inherited'>,
      idempotency: { key: string; firstSent: string },
      signal?: AbortSignal,
    ): Promise<CloudAnswer> {
      return call(
        'PATCH',
        `${universe(key.universeId)}/user-restrictions/${encodeURIComponent(robloxUserId)}`,
        key.apiKey,
        {
          query: {
            updateMask: 'gameJoinRestriction',
            'idempotencyKey.key': idempotency.key,
            'idempotencyKey.firstSent': idempotency.firstSent,
          },
          body: { gameJoinRestriction: restriction },
          signal,
        },
      );
    },

    /** One page of the universe's restrictions. */
    listRestrictions(
      key: { universeId: string; apiKey: string },
      page: { maxPageSize: number; pageToken?: string; filter?: string },
    ): Promise<CloudAnswer> {
      const query: Record<string, string> = { maxPageSize: String(page.maxPageSize) };
      if (page.pageToken) query.pageToken = page.pageToken;
      if (page.filter) query.filter = page.filter;
      return call('GET', `${universe(key.universeId)}/user-restrictions`, key.apiKey, { query });
    },

    /** One page of the universe's restriction history (universe- and place-level), newest first. */
    listLogs(key: { universeId: string; apiKey: string }, page: { maxPageSize: number; pageToken?: string }) {
      const query: Record<string, string> = { maxPageSize: String(page.maxPageSize) };
      if (page.pageToken) query.pageToken = page.pageToken;
      return call('GET', `${universe(key.universeId)}/user-restrictions:listLogs`, key.apiKey, { query });
    },
  };
}

export type OpenCloudClient = ReturnType<typeof createOpenCloudClient>;

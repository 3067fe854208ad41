import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  fakeLuauExecution,
  keyHasScope,
  USER_RESTRICTION_SCOPE,
  type FakeKeyInfo,
  type FakeLuauLimits,
  type FakeLuauTiming,
  type LuauAnswer,
} from './fake-luau-execution.ts';

export {
  LUAU_EXECUTION_SCOPE,
  USER_RESTRICTION_SCOPE,
  type FakeLuauControls,
  type FakeLuauLimits,
  type FakeLuauStats,
  type FakeLuauTiming,
  type LuauTaskInfo,
} from './fake-luau-execution.ts';

/**
 * A local stand-in for Roblox Open Cloud's user-restrictions API (the Ban API), answering in its
 * documented shapes: UserRestriction with gameJoinRestriction, `{ userRestrictions, nextPageToken }`,
 * `:listLogs` as `{ logs, nextPageToken }` newest first, errors as `{ code, message }`. It keeps
 * Roblox's rules that matter to Moonrelay: a key works for its own universe only (401 for an unknown
 * key), reasons have their maximum lengths (400), the same user may be updated twice a minute (a
 * third update gets 429), and a repeated idempotency key is answered as the first time without
 * being applied again.
 *
 * It also answers key introspection (`POST /api-keys/v1/introspect`: the key's scopes) and the Luau
 * Execution API for cloud runs (fake-luau-execution.ts, controlled through `luau`). Keys carry
 * scopes: one added without any has the user-restriction read and write scopes, as every key did
 * before cloud runs, and an API needs its own scope (write also grants read).
 */

export interface FakeRestriction {
  active: boolean;
  startTime: string;
  duration?: string;
  privateReason: string;
  displayReason: string;
  excludeAltAccounts: boolean;
}

export interface FakeLog {
  user: string;
  place?: string;
  moderator: { robloxUser?: string; gameServerScript?: Record<string, never> };
  createTime: string;
  active: boolean;
  startTime: string;
  duration?: string;
  privateReason: string;
  displayReason: string;
  excludeAltAccounts: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
  body: unknown;
}

const DISPLAY_REASON_MAX = 400;
const PRIVATE_REASON_MAX = 1000;
const UPDATES_PER_USER_PER_MINUTE = 2;
/** What `addKey` grants when it is given no scopes: the Ban API's. */
const DEFAULT_SCOPES = [`${USER_RESTRICTION_SCOPE}:read`, `${USER_RESTRICTION_SCOPE}:write`];
const OPERATIONS = ['read', 'write'] as const;
/** Roblox user ids of the fake's key owners start here, one per key. */
const FIRST_OWNER_ID = 100_000_001;

export function fakeOpenCloud(
  options: {
    now?: () => number;
    retryAfterSeconds?: number;
    /** The Luau Execution API's limits and timing to start with (see `luau.setLimits`, `luau.setTiming`). */
    luau?: { limits?: Partial<FakeLuauLimits>; timing?: Partial<FakeLuauTiming>; sandboxThreads?: number };
  } = {},
) {
  const now = options.now ?? Date.now;
  /** API key → the universe it was made for. */
  const keys = new Map<string, string>();
  /** API key → its scopes and owner. */
  const keyDetails = new Map<string, { scopes: Set<string>; ownerId: string }>();
  /** "universe/user" → the restriction. */
  const restrictions = new Map<string, FakeRestriction & { updateTime: string }>();
  /** universe → its log, newest first. */
  const logs = new Map<string, FakeLog[]>();
  /** "universe/user" → times (ms) of updates applied (and of those made by other tools). */
  const updatesOfUser = new Map<string, number[]>();
  /** Idempotency key → the answer given the first time. */
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: FakeRequest[] = [];
  const waiters: { test: (request: FakeRequest) => boolean; resolve: (request: FakeRequest) => void }[] = [];
  /** Updates applied (not replays), in order, by idempotency key. */
  const applied: { key: string; userId: string; universeId: string; active: boolean }[] = [];
  /** While set, an update is applied and its answer then held back (a connection lost mid-answer). */
  let holdAnswers = false;
  const held: http.ServerResponse[] = [];
  let onHeld: (() => void) | undefined;

  const iso = () => new Date(now()).toISOString();
  const error = (status: number, code: string, message: string) => ({ status, body: { code, message } });

  function keyOf(apiKey: string | undefined): FakeKeyInfo | undefined {
    const universeId = apiKey ? keys.get(apiKey) : undefined;
    const details = apiKey ? keyDetails.get(apiKey) : undefined;
    return universeId && details ? { universeId, ...details } : undefined;
  }

  const luau = fakeLuauExecution({ now, keyOf, ...options.luau });

  /** Roblox's key introspection: the key's own scopes, grouped by scope name. */
  function introspect(request: FakeRequest) {
    if (request.method !== 'POST') return error(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
    const apiKey = (request.body as { apiKey?: unknown } | null)?.apiKey;
    const key = typeof apiKey === 'string' ? keyOf(apiKey) : undefined;
    if (!key) return error(401, 'UNAUTHENTICATED', 'Invalid API Key');
    const names = [...new Set([...key.scopes].map((scope) => scope.slice(0, scope.lastIndexOf(':'))))];
    return {
      status: 200,
      body: {
        name: `Fake key for universe ${key.universeId}`,
        authorizedUserId: Number(key.ownerId),
        scopes: names.map((name) => ({
          name,
          operations: OPERATIONS.filter((operation) => key.scopes.has(`${name}:${operation}`)),
        })),
        enabled: true,
        expired: false,
        expirationTimeUtc: null,
      },
    };
  }

  function restrictionOf(universeId: string, userId: string) {
    const restriction = restrictions.get(`${universeId}/${userId}`);
    if (!restriction) return undefined;
    const { updateTime, ...gameJoinRestriction } = restriction;
    return {
      path: `universes/${universeId}/user-restrictions/${userId}`,
      updateTime,
      user: `users/${userId}`,
      gameJoinRestriction: { ...gameJoinRestriction, inherited: false },
    };
  }

  function page<T>(items: T[], query: URLSearchParams) {
    const size = Math.min(Number(query.get('maxPageSize') ?? 10) || 10, 100);
    const start = Number(query.get('pageToken') ? Buffer.from(query.get('pageToken')!, 'base64url').toString() : 0);
    const next = start + size < items.length ? Buffer.from(String(start + size)).toString('base64url') : undefined;
    return { items: items.slice(start, start + size), nextPageToken: next };
  }

  function update(universeId: string, userId: string, apiKey: string, query: URLSearchParams, body: unknown) {
    if (query.get('updateMask') !== 'gameJoinRestriction')
      return error(400, 'INVALID_ARGUMENT', 'updateMask must be gameJoinRestriction');
    const restriction = (body as { gameJoinRestriction?: Partial<FakeRestriction> } | null)?.gameJoinRestriction;
    if (!restriction || typeof restriction.active !== 'boolean')
      return error(400, 'INVALID_ARGUMENT', 'gameJoinRestriction.active is required');
    if ((restriction.displayReason ?? '').length > DISPLAY_REASON_MAX)
      return error(400, 'INVALID_ARGUMENT', `Display reason exceeds the maximum length of ${DISPLAY_REASON_MAX}.`);
    if ((restriction.privateReason ?? '').length > PRIVATE_REASON_MAX)
      return error(400, 'INVALID_ARGUMENT', `Private reason exceeds the maximum length of ${PRIVATE_REASON_MAX}.`);
    if (restriction.duration !== undefined && !/^\d+s$/.test(restriction.duration))
      return error(400, 'INVALID_ARGUMENT', 'Invalid duration.');
    const userKey = `${universeId}/${userId}`;
    const recent = (updatesOfUser.get(userKey) ?? []).filter((at) => at > now() - 60_000);
    if (recent.length >= UPDATES_PER_USER_PER_MINUTE)
      return error(429, 'RESOURCE_EXHAUSTED', 'Too many requests for this user. Try again later.');
    updatesOfUser.set(userKey, [...recent, now()]);
    const startTime = iso();
    restrictions.set(userKey, {
      active: restriction.active,
      startTime,
      ...(restriction.duration ? { duration: restriction.duration } : {}),
      privateReason: restriction.privateReason ?? '',
      displayReason: restriction.displayReason ?? '',
      excludeAltAccounts: restriction.excludeAltAccounts ?? false,
      updateTime: startTime,
    });
    const log: FakeLog = {
      user: `users/${userId}`,
      moderator: { robloxUser: `users/${apiKey.length}` },
      createTime: startTime,
      active: restriction.active,
      startTime,
      ...(restriction.duration ? { duration: restriction.duration } : {}),
      privateReason: restriction.privateReason ?? '',
      displayReason: restriction.displayReason ?? '',
      excludeAltAccounts: restriction.excludeAltAccounts ?? false,
    };
    logs.set(universeId, [log, ...(logs.get(universeId) ?? [])]);
    applied.push({ key: query.get('idempotencyKey.key') ?? '', userId, universeId, active: restriction.active });
    return { status: 200, body: restrictionOf(universeId, userId) };
  }

  /** The answer to a request; a Luau Execution create's may be held back (`luau.holdCreates`). */
  function answer(request: FakeRequest): LuauAnswer {
    if (request.path === '/api-keys/v1/introspect') return introspect(request);
    if (luau.handles(request.path)) return luau.answer(request);
    const match = /^\/cloud\/v2\/universes\/(\d+)\/user-restrictions(?::listLogs|\/(\d+))?$/.exec(request.path);
    if (!match) return error(404, 'NOT_FOUND', 'Not found');
    const universeId = match[1]!;
    const keyUniverse = request.apiKey ? keys.get(request.apiKey) : undefined;
    if (!keyUniverse) return error(401, 'UNAUTHENTICATED', 'Invalid API Key');
    if (keyUniverse !== universeId)
      return error(403, 'PERMISSION_DENIED', 'The API key is not authorized for this universe.');
    const operation = request.method === 'GET' ? 'read' : 'write';
    if (!keyHasScope(keyOf(request.apiKey)!, USER_RESTRICTION_SCOPE, operation))
      return error(
        403,
        'PERMISSION_DENIED',
        `The API key does not have the required scope ${USER_RESTRICTION_SCOPE}:${operation}`,
      );
    if (request.path.endsWith(':listLogs') && request.method === 'GET') {
      const { items, nextPageToken } = page(logs.get(universeId) ?? [], request.query);
      return { status: 200, body: { logs: items, ...(nextPageToken ? { nextPageToken } : {}) } };
    }
    if (match[2] && request.method === 'PATCH') {
      const idempotencyKey = request.query.get('idempotencyKey.key');
      const seen = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (seen) return seen;
      const result = update(universeId, match[2], request.apiKey!, request.query, request.body);
      if (result.status === 429)
        return { ...result, headers: { 'retry-after': String(options.retryAfterSeconds ?? 1) } };
      if (idempotencyKey && result.status === 200) idempotent.set(idempotencyKey, result);
      return result;
    }
    if (!match[2] && request.method === 'GET') {
      const filterActive = request.query.get('filter') === 'game_join_restriction.active == "true"';
      const all = [...restrictions.keys()]
        .filter((key) => key.startsWith(`${universeId}/`))
        .map((key) => restrictionOf(universeId, key.split('/')[1]!)!)
        .filter((restriction) => !filterActive || restriction.gameJoinRestriction.active);
      const { items, nextPageToken } = page(all, request.query);
      return { status: 200, body: { userRestrictions: items, ...(nextPageToken ? { nextPageToken } : {}) } };
    }
    return error(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const apiKey = req.headers['x-api-key'];
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: decodeURIComponent(url.pathname),
        query: url.searchParams,
        apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        body,
      };
      requests.push(request);
      const result = answer(request);
      for (const waiter of [...waiters])
        if (waiter.test(request)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(request);
        }
      if (holdAnswers && request.method === 'PATCH' && result.status === 200) {
        held.push(res);
        onHeld?.();
        return;
      }
      const send = () => {
        res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
        res.end(JSON.stringify(result.body));
      };
      if (result.held) void result.held.then((answered) => (answered ? send() : res.destroy()));
      else send();
    });
  });

  return {
    requests,
    applied,
    /**
     * Makes `apiKey` a key of `universeId` with `scopes` ("scope:operation", e.g.
     * "universe.place.luau-execution-session:write"), by default the user-restriction read and write scopes.
     * Each key has an owner of its own (rate limits count per owner).
     */
    addKey(apiKey: string, universeId: string, scopes: readonly string[] = DEFAULT_SCOPES) {
      for (const scope of scopes)
        if (!/^[\w.-]+:(read|write)$/.test(scope))
          throw new Error(`A scope is "name:read" or "name:write", not ${scope}`);
      keys.set(apiKey, universeId);
      const ownerId = keyDetails.get(apiKey)?.ownerId ?? String(FIRST_OWNER_ID + keyDetails.size);
      keyDetails.set(apiKey, { scopes: new Set(scopes), ownerId });
    },
    /** The Luau Execution API's controls: places, limits, timing, failures, held tasks, what happened. */
    luau: luau.controls,
    /** A ban made elsewhere (Creator Hub, BanAsync): in the restrictions and at the top of the log. */
    addLog(universeId: string, log: FakeLog) {
      logs.set(universeId, [log, ...(logs.get(universeId) ?? [])]);
      if (log.active)
        restrictions.set(`${universeId}/${log.user.split('/')[1]}`, {
          active: true,
          startTime: log.startTime,
          ...(log.duration ? { duration: log.duration } : {}),
          privateReason: log.privateReason,
          displayReason: log.displayReason,
          excludeAltAccounts: log.excludeAltAccounts,
          updateTime: log.createTime,
        });
    },
    /** An update of the user made by another tool: it spends the user's two a minute. */
    updatedElsewhere(universeId: string, userId: string) {
      const key = `${universeId}/${userId}`;
      updatesOfUser.set(key, [...(updatesOfUser.get(key) ?? []), now()]);
    },
    restriction: (universeId: string, userId: string) => restrictionOf(universeId, userId),
    /** Resolves with the next request that `test` accepts. */
    nextRequest(test: (request: FakeRequest) => boolean): Promise<FakeRequest> {
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    /** Applies updates but holds their answers back until `releaseHeld`; resolves once one is held. */
    holdNextAnswers(): Promise<void> {
      holdAnswers = true;
      return new Promise((resolve) => (onHeld = resolve));
    },
    /** Ends the held answers' connections without answering (the answer was lost). */
    dropHeld() {
      holdAnswers = false;
      onHeld = undefined;
      for (const res of held.splice(0)) res.destroy();
    },
    /** Listens on 127.0.0.1 (on `port`, by default any free one) and answers the base URL. */
    start: (port = 0) =>
      new Promise<string>((resolve) =>
        server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: async () => {
      await new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await luau.close();
    },
  };
}

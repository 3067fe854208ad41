import type { ExecutionTarget } from '@moonrelay/contract/executions';
import type Router from '@koa/router';
import { API_KEY_ERRORS } from '@moonrelay/contract/api-keys';
import { endpoints } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { AppState, KeyRefusal } from '../../http/context.ts';
import type { Idempotency } from '../../http/idempotency.ts';
import { mountEndpoint, requirePermission, type KeyGate } from '../../http/endpoint.ts';
import { hasScope, requireScope } from '../../http/key-scopes.ts';
import { ipKey, spend, type RateLimits } from '../../http/rate-limit.ts';
import { looksLikeApiKey } from '../../security/api-keys.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { SessionsService } from '../auth/sessions.service.ts';
import type { Db } from '../../db/database.ts';
import type { ExecutionsService } from './executions.service.ts';
import { runActorOf } from './run-actor.ts';

/**
 * POST /api/scripts/execute also takes its credential as `key` in the body (spec section 6: the
 * game client's documented execute call sends its API key there; the catalogue screen sends the
 * user's token there too). The Authorization header, when it names a caller, decides; else the
 * body's key does, an API key or a session token. A refused body key, or the game client's call
 * (`script`) with no key at all, answers 401 Invalid API key after spending the caller's IP
 * budget, as a refused key of the ping does.
 */
function bodyKeyGate(deps: { apiKeys: ApiKeysService; sessions: SessionsService }, limits: RateLimits): KeyGate {
  return async ({ body, caller }) => {
    if (caller.principal) return;
    const fields = (body ?? {}) as Record<string, unknown>;
    const key = typeof fields.key === 'string' ? fields.key : undefined;
    // Without a key the header's refusal stands (401 Authentication failed), unless this is the game's call.
    if (key === undefined && fields.script === undefined) return;
    let refusal: KeyRefusal | undefined;
    if (key && looksLikeApiKey(key)) {
      const checked = await deps.apiKeys.check(key, caller.ip());
      if (checked.owner) caller.principal = { kind: 'api-key', ...checked.owner };
      refusal = checked.refusal;
    } else if (key) {
      const session = await deps.sessions.resolve(key);
      if (session) caller.principal = { kind: 'session', ...session };
    }
    if (!caller.principal) {
      await spend(caller, limits.execution, ipKey(caller.ip()));
      if (refusal?.status === 403) throw new AppError(403, refusal.message);
      throw new AppError(401, refusal?.message ?? ERRORS.invalidApiKey, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
  };
}

/** Targets that reach the game itself: its live servers (the default), or Roblox with its real DataStores. */
const touchesTheGame = (target: ExecutionTarget | undefined) => (target ?? 'game') === 'game' || target === 'cloud';

export function mountExecutionRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: {
    idempotency: Idempotency;
    executions: ExecutionsService;
    apiKeys: ApiKeysService;
    sessions: SessionsService;
    db: Db;
  },
): void {
  const { executions, idempotency, db } = deps;
  mountEndpoint(
    router,
    endpoints.executeCode,
    limits,
    idempotency.wrap(endpoints.executeCode, async ({ principal, body }) => {
      // Running code needs `execute`. A script by name: any script with `scripts:read` (sessions,
      // the personal key); with `game` alone (the integration key, readable by whoever can read the
      // game's Script) only what its game auto-executes (docs/decisions/029, section of 2026-11-29).
      if (body.script === undefined) requireScope(principal, 'execute');
      // The endpoint asks runs.sandbox; code in the live game (the default target) or in Roblox with
      // the game's real DataStores (cloud) asks runs.game.
      if (touchesTheGame(body.target)) requirePermission(principal, 'runs.game');
      if (body.script !== undefined) {
        const readsEvery = hasScope(principal, 'scripts:read');
        if (!readsEvery && !hasScope(principal, 'game')) {
          throw new AppError(403, API_KEY_ERRORS.scopeMissingPrefix + 'game or scripts:read');
        }
        return executions.scriptForGame(principal.userId, body.script, {
          serverId: body.serverId,
          gameData: body.gameData,
          gameOnly: !readsEvery,
          actor: await runActorOf(db, principal),
        });
      }
      return executions.runCode(principal.userId, (body.code ?? body.loadstring)!, body.target, body.serverId, {
        scriptId: body.scriptId,
        actor: await runActorOf(db, principal),
        timeoutSeconds: body.timeoutSeconds,
      });
    }),
    bodyKeyGate(deps, limits),
  );
  mountEndpoint(
    router,
    endpoints.executeScript,
    limits,
    idempotency.wrap(endpoints.executeScript, async ({ principal, params, body }) => {
      if (touchesTheGame(body.target)) requirePermission(principal, 'runs.game');
      const actor = await runActorOf(db, principal);
      return executions.runScript(principal.userId, params.id, body.target, body.serverId, actor, body.timeoutSeconds);
    }),
  );
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import { actorOf, type AppContext, type AppState } from '../../http/context.ts';
import {
  fastEndpoint,
  mountEndpoint,
  requirePermission,
  type ContextFreeHandler,
  type KeyGate,
  type RefusalListener,
} from '../../http/endpoint.ts';
import type { FastRoute } from '../../http/fast-routes.ts';
import type { Idempotency } from '../../http/idempotency.ts';
import { ipKey, spend, type RateLimits } from '../../http/rate-limit.ts';
import { reachabilityOf } from '../../http/reachability.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import { looksLikeApiKey } from '../../security/api-keys.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { COMMAND_QUEUED } from './commands.service.ts';
import { DEFAULT_SERVER_ID, type GameLinkService } from './game-link.service.ts';
import { normaliseServerUrl, renderGameIntegration, renderIntegrationScripts } from './integration-scripts.ts';
import type { PlayerProfiles } from './player-profiles.ts';

const stringField = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The game proves itself with the API key in the body (ping) or the query (loader). A refused key
 * spends the caller's IP budget, so guessing keys is throttled; an accepted one spends the budget
 * of that game server alone (ping), so a game's steady loop never touches the user's own budget.
 * The Koa route and the fast route of the ping both run this one gate.
 */
function gameKeyGate(apiKeys: ApiKeysService, limits: RateLimits, policy: 'game' | 'general'): KeyGate {
  return async ({ body, query, caller }) => {
    const fields = body as Record<string, unknown> | undefined;
    const key = stringField(fields?.key) ?? stringField(query.key);
    const { owner, refusal } =
      key && looksLikeApiKey(key) ? await apiKeys.check(key, caller.ip()) : { refusal: undefined, owner: undefined };
    if (!owner) {
      await spend(caller, limits.general, ipKey(caller.ip()));
      throw new AppError(refusal?.status ?? 401, refusal?.message ?? ERRORS.invalidApiKey);
    }
    caller.principal = { kind: 'api-key', ...owner };
    const serverId = (stringField(fields?.serverId) || DEFAULT_SERVER_ID).slice(0, 100);
    await spend(
      caller,
      limits[policy],
      policy === 'game' ? `game:${owner.apiKeyId}:${serverId}` : `key:${owner.apiKeyId}`,
    );
  };
}

/** Mounts the game link's routes; answers the fast routes among them (the ping), for the HTTP server's listener. */
export function mountGameRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: {
    idempotency: Idempotency;
    gameLink: GameLinkService;
    apiKeys: ApiKeysService;
    luaTools: HttpLuaTools;
    profiles: PlayerProfiles;
    serverUrl: ServerUrl;
  },
): FastRoute[] {
  const { gameLink, apiKeys, luaTools, profiles } = deps;
  const serverUrl = (ctx: AppContext) => deps.serverUrl({ host: ctx.host, protocol: ctx.protocol });

  const ping: ContextFreeHandler<typeof endpoints.gamePing> = ({ principal, body }) =>
    gameLink.ping(principal.userId, body, principal.actorId);
  const pingGate = gameKeyGate(apiKeys, limits, 'game');
  // A ping refused for what it carried: its server's owner sees why (the game's own health).
  const pingRefused: RefusalListener = ({ principal, body }, error) => {
    const serverId = stringField((body as Record<string, unknown> | undefined)?.serverId) || DEFAULT_SERVER_ID;
    gameLink.recordRefusal(principal.userId, serverId.slice(0, 100), error.message);
  };
  mountEndpoint(router, endpoints.gamePing, limits, ping, pingGate, pingRefused);
  mountEndpoint(router, endpoints.gameStatus, limits, ({ principal }) => gameLink.status(principal.userId));
  mountEndpoint(
    router,
    endpoints.gameCommand,
    limits,
    deps.idempotency.wrap(endpoints.gameCommand, async ({ principal, body }) => {
      // Teleport, heal, speed and reset need game.control (the endpoint's); code, runs.game as well.
      if (body.type === 'execute' || body.type === 'script') {
        requirePermission(principal, 'runs.game');
        await luaTools.assertValidSyntax(body.data.code);
      }
      const sent = await gameLink.send(principal.userId, body, 'dashboard');
      return { queued: true as const, message: COMMAND_QUEUED, ...sent };
    }),
  );
  mountEndpoint(
    router,
    endpoints.gameLoader,
    limits,
    async ({ query, ctx }) => renderGameIntegration({ serverUrl: serverUrl(ctx), apiKey: query.key! }),
    gameKeyGate(apiKeys, limits, 'general'),
  );
  mountEndpoint(router, endpoints.gameProfile, limits, ({ query }) => profiles.get(query.userId));
  // The scripts that sit in a game carry a key of the `game` scope alone, not the personal key:
  // whoever can read the game's Script can then connect a game, but not change scripts or run code.
  // Beside them, whether a game on Roblox can reach their address: only an admin is told to change
  // the settings, since only an admin can.
  mountEndpoint(router, endpoints.integrationScripts, limits, async ({ principal, ctx }) => {
    const apiKey = await apiKeys.integrationKey(principal.userId, actorOf(principal));
    const address = normaliseServerUrl(serverUrl(ctx));
    const audience = principal.kind === 'session' && principal.isAdmin ? 'admin' : 'member';
    return {
      ...renderIntegrationScripts({ serverUrl: address, apiKey }),
      reachability: reachabilityOf(address, audience),
    };
  });
  return [fastEndpoint(endpoints.gamePing, ping, pingGate, pingRefused)];
}

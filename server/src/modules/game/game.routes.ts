import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { endpoints } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import { ipKey, spend, type RateLimits } from '../../http/rate-limit.ts';
import { looksLikeApiKey } from '../../security/api-keys.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { COMMAND_QUEUED } from './commands.service.ts';
import { DEFAULT_SERVER_ID, type GameLinkService } from './game-link.service.ts';
import { renderGameIntegration, renderIntegrationScripts } from './integration-scripts.ts';
import type { PlayerProfiles } from './player-profiles.ts';

const stringField = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The game proves itself with the API key in the body (ping) or the query (loader). A refused key
 * spends the caller's IP budget, so guessing keys is throttled; an accepted one spends the budget
 * of that game server alone (ping), so a game's steady loop never touches the user's own budget.
 */
function gameKeyGate(apiKeys: ApiKeysService, limits: RateLimits, policy: 'game' | 'general'): Middleware<AppState> {
  return async (ctx, next) => {
    const body = (ctx.request as { body?: Record<string, unknown> }).body;
    const key = stringField(body?.key) ?? stringField(ctx.query.key);
    const owner = key && looksLikeApiKey(key) ? await apiKeys.resolve(key) : null;
    if (!owner) {
      await spend(ctx, limits.general, ipKey(ctx.ip));
      throw new AppError(401, ERRORS.invalidApiKey);
    }
    ctx.state.principal = { kind: 'api-key', ...owner };
    const serverId = (stringField(body?.serverId) || DEFAULT_SERVER_ID).slice(0, 100);
    await spend(
      ctx,
      limits[policy],
      policy === 'game' ? `game:${owner.apiKeyId}:${serverId}` : `key:${owner.apiKeyId}`,
    );
    await next();
  };
}

export function mountGameRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: {
    gameLink: GameLinkService;
    apiKeys: ApiKeysService;
    luaTools: HttpLuaTools;
    profiles: PlayerProfiles;
    publicUrl: string | undefined;
  },
): void {
  const { gameLink, apiKeys, luaTools, profiles } = deps;
  // Without PUBLIC_URL, the address the caller used (Host, or X-Forwarded-* behind a trusted proxy).
  const serverUrl = (ctx: AppContext) => deps.publicUrl ?? `${ctx.protocol}://${ctx.host}`;

  mountEndpoint(
    router,
    endpoints.gamePing,
    limits,
    ({ principal, body }) => gameLink.ping(principal.userId, body),
    gameKeyGate(apiKeys, limits, 'game'),
  );
  mountEndpoint(router, endpoints.gameStatus, limits, ({ principal }) => gameLink.status(principal.userId));
  mountEndpoint(router, endpoints.gameCommand, limits, async ({ principal, body }) => {
    if (body.type === 'execute' || body.type === 'script') await luaTools.assertValidSyntax(body.data.code);
    const rows = await gameLink.send(principal.userId, body, 'dashboard');
    return { queued: true as const, message: COMMAND_QUEUED, id: rows[0]!.id, ids: rows.map((row) => row.id) };
  });
  mountEndpoint(
    router,
    endpoints.gameLoader,
    limits,
    async ({ query, ctx }) => renderGameIntegration({ serverUrl: serverUrl(ctx), apiKey: query.key! }),
    gameKeyGate(apiKeys, limits, 'general'),
  );
  mountEndpoint(router, endpoints.gameProfile, limits, ({ query }) => profiles.get(query.userId));
  mountEndpoint(router, endpoints.integrationScripts, limits, async ({ principal, ctx }) => {
    const apiKey = await apiKeys.reveal(principal.userId);
    if (!apiKey) throw new AppError(404, 'No API key available');
    return renderIntegrationScripts({ serverUrl: serverUrl(ctx), apiKey });
  });
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ScriptSharesService } from './script-shares.service.ts';

export function mountScriptShareRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  shares: ScriptSharesService,
): void {
  mountEndpoint(router, endpoints.createScriptShare, limits, ({ principal, params }) =>
    shares.create(principal.userId, actorOf(principal), params.id),
  );
  mountEndpoint(router, endpoints.listScriptShares, limits, async ({ principal }) => ({
    items: await shares.list(principal.userId),
  }));
  mountEndpoint(router, endpoints.deleteScriptShare, limits, async ({ principal, params }) => {
    await shares.remove(principal.userId, params.shareId);
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.getSharedScript, limits, ({ params }) => shares.shared(params.token));
  mountEndpoint(router, endpoints.copySharedScript, limits, ({ principal, params }) =>
    shares.copyShared(params.token, principal.userId, actorOf(principal)),
  );
  mountEndpoint(router, endpoints.copyScript, limits, ({ principal, params, body }) =>
    shares.copy(principal.userId, params.id, actorOf(principal), body.teamId),
  );
}

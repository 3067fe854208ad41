import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { playersOwner, type PlayersViewer } from '../players/players.service.ts';
import type { BansService } from './bans.service.ts';
import type { OpenCloudKeys } from './open-cloud-keys.ts';
import type { Restrictions } from './restrictions.ts';

/** An admin acting through their session (a key never carries the admin's reach), as for Players. */
const viewerOf = (principal: Principal): PlayersViewer => ({
  userId: principal.userId,
  isAdmin: principal.kind === 'session' && principal.isAdmin && !principal.adminNeedsTwoFactor,
});

export function mountOpenCloudRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { keys: OpenCloudKeys; bans: BansService; restrictions: Restrictions },
): void {
  mountEndpoint(router, endpoints.getOpenCloudKey, limits, async ({ principal }) => ({
    key: await deps.keys.get(principal.userId),
  }));
  mountEndpoint(router, endpoints.saveOpenCloudKey, limits, ({ principal, body }) =>
    deps.keys.save(principal.userId, body),
  );
  mountEndpoint(router, endpoints.saveCloudPlace, limits, ({ principal, body }) =>
    deps.keys.savePlace(principal.userId, body),
  );
  mountEndpoint(router, endpoints.deleteOpenCloudKey, limits, async ({ principal }) => {
    await deps.keys.remove(principal.userId);
    return { success: true as const };
  });
  // Bans are the players' business: who may see them is decided where the players' is.
  mountEndpoint(router, endpoints.listRobloxBans, limits, ({ principal, query }) =>
    deps.bans.list(playersOwner(viewerOf(principal), query.ownerId), query.limit),
  );
  mountEndpoint(router, endpoints.importBans, limits, ({ principal, query }) =>
    deps.restrictions.importLogs(playersOwner(viewerOf(principal), query.ownerId)),
  );
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { playersOwner, type PlayersService, type PlayersViewer } from './players.service.ts';

/** An admin acting through their session (a key never carries the admin's reach). */
const viewerOf = (principal: Principal): PlayersViewer => ({
  userId: principal.userId,
  isAdmin: principal.kind === 'session' && principal.isAdmin && !principal.adminNeedsTwoFactor,
});

export function mountPlayerRoutes(router: Router<AppState>, limits: RateLimits, players: PlayersService): void {
  mountEndpoint(router, endpoints.onlinePlayers, limits, ({ principal, query }) =>
    players.online(playersOwner(viewerOf(principal), query.ownerId), query),
  );
  mountEndpoint(router, endpoints.listPlayers, limits, ({ principal, query }) =>
    players.everyone(playersOwner(viewerOf(principal), query.ownerId), query),
  );
  mountEndpoint(router, endpoints.getPlayer, limits, ({ principal, params, query }) =>
    players.record(playersOwner(viewerOf(principal), query.ownerId), params.userId),
  );
}

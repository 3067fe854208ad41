import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { UsersService } from './users.service.ts';

export function mountUserRoutes(router: Router<AppState>, limits: RateLimits, users: UsersService): void {
  mountEndpoint(router, endpoints.currentUser, limits, ({ principal }) => users.profile(principal.userId));
  mountEndpoint(router, endpoints.regenerateKey, limits, ({ principal }) =>
    users.regenerateOwnKey(principal.userId, actorOf(principal)),
  );
  mountEndpoint(router, endpoints.deleteAccount, limits, async ({ principal }) => {
    await users.deleteOwnAccount(principal.userId);
    return { success: true as const, message: 'Account deleted' };
  });
}

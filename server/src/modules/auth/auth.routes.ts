import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { AccountsService } from './accounts.service.ts';

export function mountAuthRoutes(router: Router<AppState>, limits: RateLimits, accounts: AccountsService): void {
  mountEndpoint(router, endpoints.register, limits, ({ body }) => accounts.register(body));
  mountEndpoint(router, endpoints.login, limits, ({ body }) => accounts.login(body));
  mountEndpoint(router, endpoints.logout, limits, async ({ principal }) => {
    if (principal.kind === 'session') await accounts.logout(principal.sessionId);
    return { success: true as const, message: 'Logged out' };
  });
}

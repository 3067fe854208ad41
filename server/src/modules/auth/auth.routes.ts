import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import { ipKey, type RateLimits } from '../../http/rate-limit.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import type { AccountsService } from './accounts.service.ts';
import { deviceOf } from './device.ts';

export function mountAuthRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  accounts: AccountsService,
  /** Accounts registered per IP address (REGISTRATIONS_PER_IP_PER_HOUR): sign-ups cannot be scripted at will. */
  registrations: WindowCounter,
  /** Told of every sign-in with the address it came from (notifications: sign-in from a new address). */
  onSignIn: (userId: string, address: string) => void = () => {},
): void {
  mountEndpoint(router, endpoints.register, limits, async ({ body, ctx }) => {
    const budget = await registrations.hit(ipKey(ctx.ip));
    if (!budget.allowed) {
      const retryAfter = Math.max(1, Math.ceil(budget.resetMs / 1000));
      throw new AppError(429, ERRORS.tooManyRegistrations(retryAfter), {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    return accounts.register(body, deviceOf(ctx));
  });
  mountEndpoint(router, endpoints.login, limits, async ({ body, ctx }) => {
    const answer = await accounts.login(body, deviceOf(ctx));
    if ('token' in answer) onSignIn(answer.user.id, ctx.ip);
    return answer;
  });
  mountEndpoint(router, endpoints.loginTwoFactor, limits, async ({ body, ctx }) => {
    const answer = await accounts.loginWithCode(body, deviceOf(ctx));
    onSignIn(answer.user.id, ctx.ip);
    return answer;
  });
  mountEndpoint(router, endpoints.logout, limits, async ({ principal }) => {
    if (principal.kind === 'session') await accounts.logout(principal.userId, principal.sessionId);
    return { success: true as const, message: 'Logged out' };
  });
}

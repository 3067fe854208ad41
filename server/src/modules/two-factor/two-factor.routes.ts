import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const isAdmin = (principal: Principal) => principal.kind === 'session' && principal.isAdmin;

/** Setting up and turning off the second factor, from Settings. */
export function mountTwoFactorRoutes(router: Router<AppState>, limits: RateLimits, twoFactor: TwoFactorService): void {
  mountEndpoint(router, endpoints.twoFactorStatus, limits, ({ principal }) =>
    twoFactor.status(principal.userId, isAdmin(principal)),
  );
  mountEndpoint(router, endpoints.totpSetup, limits, ({ principal, body }) =>
    twoFactor.startTotp(principal.userId, body.password),
  );
  mountEndpoint(router, endpoints.totpConfirm, limits, ({ principal, body }) =>
    twoFactor.confirmTotp(principal.userId, isAdmin(principal), body.code),
  );
  mountEndpoint(router, endpoints.totpDisable, limits, ({ principal, body }) =>
    twoFactor.disableTotp(principal.userId, isAdmin(principal), body),
  );
}

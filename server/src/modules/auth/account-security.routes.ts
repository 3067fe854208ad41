import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from '../../http/app-error.ts';
import type { AppContext, AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import { relyingPartyOf } from '../two-factor/relying-party.ts';
import type { AccountSecurity } from './account-security.service.ts';

/** Session routes are 'session' endpoints: the principal is always a session here. */
function sessionOf(principal: Principal) {
  if (principal.kind !== 'session') throw new AppError(403, ERRORS.sessionRequired);
  return principal;
}

/** Sessions in Settings, sudo mode, and the password and email changes. */
export function mountAccountSecurityRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  security: AccountSecurity,
  serverUrl: ServerUrl,
): void {
  const rp = (ctx: AppContext) => relyingPartyOf(serverUrl, { host: ctx.host, protocol: ctx.protocol });

  mountEndpoint(router, endpoints.listSessions, limits, async ({ principal }) => ({
    sessions: await security.list(sessionOf(principal)),
  }));
  mountEndpoint(router, endpoints.endSession, limits, ({ principal, params }) =>
    security.endOne(sessionOf(principal), params.sessionId),
  );
  mountEndpoint(router, endpoints.endOtherSessions, limits, ({ principal }) =>
    security.endOthers(sessionOf(principal)),
  );
  mountEndpoint(router, endpoints.changePassword, limits, ({ principal, body }) =>
    security.changePassword(sessionOf(principal), body, () => security.sudoMethods(principal.userId)),
  );
  mountEndpoint(router, endpoints.changeEmail, limits, ({ principal, body }) =>
    security.changeEmail(sessionOf(principal), body),
  );

  mountEndpoint(router, endpoints.sudoStatus, limits, ({ principal }) => security.sudoStatus(sessionOf(principal)));
  mountEndpoint(router, endpoints.sudo, limits, ({ principal, body }) =>
    security.proveWithSecret(sessionOf(principal), body),
  );
  mountEndpoint(router, endpoints.sudoPasskeyOptions, limits, ({ principal, ctx }) =>
    security.passkeyOptions(sessionOf(principal), rp(ctx)),
  );
  mountEndpoint(router, endpoints.sudoPasskey, limits, ({ principal, body, ctx }) =>
    security.proveWithPasskey(sessionOf(principal), body.credential, rp(ctx)),
  );
}

import type { Middleware } from 'koa';
import { looksLikeApiKey } from '../security/api-keys.ts';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import type { SessionsService } from '../modules/auth/sessions.service.ts';
import type { AppState } from './context.ts';

/**
 * Reads `Authorization: Bearer <credential>` and records who is calling. It never refuses a request
 * itself: each route states which kinds of caller it accepts (see endpoint.ts).
 */
export function authenticate(deps: {
  sessions: SessionsService;
  apiKeys: ApiKeysService;
  /** REQUIRE_TWO_FACTOR_FOR_ADMINS: an admin session without a second factor is marked, and admin routes refuse it. */
  requireTwoFactorForAdmins: boolean;
}): Middleware<AppState> {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    const credential = match?.[1];
    if (credential && looksLikeApiKey(credential)) {
      const { owner, refusal } = await deps.apiKeys.check(credential, ctx.ip);
      if (owner) ctx.state.principal = { kind: 'api-key', ...owner };
      else {
        ctx.state.rejectedCredential = 'api-key';
        ctx.state.keyRefusal = refusal;
      }
    } else if (credential) {
      const session = await deps.sessions.resolve(credential);
      if (session) {
        const { hasTwoFactor, ...who } = session;
        ctx.state.principal = {
          kind: 'session',
          ...who,
          adminNeedsTwoFactor: deps.requireTwoFactorForAdmins && session.isAdmin && !hasTwoFactor,
        };
      } else ctx.state.rejectedCredential = 'session';
    }
    await next();
  };
}

import type { Middleware } from 'koa';
import type { SudoMethod } from '@moonrelay/contract/sessions';
import { looksLikeApiKey } from '../../security/api-keys.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { SessionSecondFactor, SessionsService } from './sessions.service.ts';
import type { AppState } from '../../http/context.ts';

/**
 * REQUIRE_TWO_FACTOR_FOR_ADMINS: an admin's session that did not pass a second factor (at sign-in,
 * or since by setting one up) gets no admin powers, over HTTP or a socket alike.
 */
export function adminNeedsTwoFactor(
  required: boolean,
  session: { isAdmin: boolean; secondFactor: SessionSecondFactor | null },
): boolean {
  return required && session.isAdmin && session.secondFactor === null;
}

/**
 * Reads `Authorization: Bearer <credential>` and records who is calling. It never refuses a request
 * itself: each route states which kinds of caller it accepts (see endpoint.ts).
 */
export function authenticate(deps: {
  sessions: SessionsService;
  apiKeys: ApiKeysService;
  /** REQUIRE_TWO_FACTOR_FOR_ADMINS: an admin session without a second factor is marked, and admin routes refuse it. */
  requireTwoFactorForAdmins: boolean;
  /** The ways an account can prove itself again (sudo mode), named in a protected change's refusal. */
  sudoMethods: (userId: string) => Promise<SudoMethod[]>;
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
      const session = await deps.sessions.resolve(credential, ctx.ip);
      if (session) {
        ctx.state.principal = {
          kind: 'session',
          sessionId: session.sessionId,
          userId: session.userId,
          isAdmin: session.isAdmin,
          sudoUntilMs: session.sudoUntilMs,
          adminNeedsTwoFactor: adminNeedsTwoFactor(deps.requireTwoFactorForAdmins, session),
        };
        ctx.state.sudoMethods = () => deps.sudoMethods(session.userId);
      } else ctx.state.rejectedCredential = 'session';
    }
    await next();
  };
}

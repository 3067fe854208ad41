import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState, Principal } from '../../http/context.ts';
import type { ProofOrSudo } from '@moonrelay/contract/two-factor';
import { mountEndpoint, requireRecentProof } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import type { UsersService } from '../users/users.service.ts';
import type { PasskeysService } from './passkeys.service.ts';
import { relyingPartyOf } from './relying-party.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const isAdmin = (principal: Principal) => principal.kind === 'session' && principal.isAdmin;

/** What a change to the second factor notes on the session that made it (auth's sessions). */
export interface SessionProofs {
  /** The session proved itself just now (sudo mode for the next 10 minutes). */
  proved(sessionId: string): Promise<unknown>;
  /** The session passed this second factor. */
  passedSecondFactor(sessionId: string, factor: 'code' | 'passkey'): Promise<void>;
}

interface Deps {
  twoFactor: TwoFactorService;
  sessions: SessionProofs;
  passkeys: PasskeysService;
  users: UsersService;
  serverUrl: ServerUrl;
}

/**
 * Setting up and turning off the second factors from Settings, and the admin's reset. (Signing in
 * with a passkey is auth's: auth/passkey-sign-in.routes.ts.)
 */
export function mountTwoFactorRoutes(router: Router<AppState>, limits: RateLimits, deps: Deps): void {
  const { twoFactor, passkeys, sessions } = deps;
  const rp = (ctx: AppContext) => relyingPartyOf(deps.serverUrl, { host: ctx.host, protocol: ctx.protocol });

  /**
   * The proof a change to the second factor needs: the one in the body, else the session's own from
   * the last 10 minutes (sudo mode; 403 with `sudo_required` without it).
   */
  const proofOf = async (principal: Principal, body: ProofOrSudo, ctx: AppContext) => {
    if (body.password !== undefined || body.code !== undefined) return body;
    await requireRecentProof(principal, ctx.state.sudoMethods);
    return 'recent' as const;
  };
  /** A proof sent in the body proves the session too: the next protected change within 10 minutes asks nothing. */
  const provedBy = async <T>(principal: Principal, proof: ProofOrSudo | 'recent', work: Promise<T>): Promise<T> => {
    const answer = await work;
    if (proof !== 'recent' && principal.kind === 'session') await sessions.proved(principal.sessionId);
    return answer;
  };

  mountEndpoint(router, endpoints.twoFactorStatus, limits, ({ principal }) =>
    twoFactor.status(principal.userId, isAdmin(principal)),
  );
  mountEndpoint(router, endpoints.totpSetup, limits, ({ principal, body }) =>
    twoFactor.startTotp(principal.userId, body.password),
  );
  mountEndpoint(router, endpoints.totpConfirm, limits, async ({ principal, body }) => {
    const answer = await twoFactor.confirmTotp(principal.userId, isAdmin(principal), body.code);
    // The session that set the factor up has just passed it.
    if (principal.kind === 'session') await sessions.passedSecondFactor(principal.sessionId, 'code');
    return answer;
  });
  mountEndpoint(router, endpoints.totpDisable, limits, async ({ principal, body, ctx }) => {
    const proof = await proofOf(principal, body, ctx);
    return provedBy(principal, proof, twoFactor.disableTotp(principal.userId, isAdmin(principal), proof));
  });

  mountEndpoint(router, endpoints.listPasskeys, limits, ({ principal }) => passkeys.list(principal.userId));
  mountEndpoint(router, endpoints.passkeyRegistrationOptions, limits, async ({ principal, body, ctx }) => {
    const proof = await proofOf(principal, body, ctx);
    return provedBy(principal, proof, passkeys.registrationOptions(principal.userId, proof, rp(ctx)));
  });
  mountEndpoint(router, endpoints.registerPasskey, limits, async ({ principal, body, ctx }) => {
    const answer = await passkeys.register(principal.userId, isAdmin(principal), body, rp(ctx));
    // Registering made the passkey sign a challenge for this session: it has passed that factor.
    if (principal.kind === 'session') await sessions.passedSecondFactor(principal.sessionId, 'passkey');
    return answer;
  });
  mountEndpoint(router, endpoints.removePasskey, limits, async ({ principal, params, body, ctx }) => {
    const proof = await proofOf(principal, body, ctx);
    return provedBy(principal, proof, passkeys.remove(principal.userId, isAdmin(principal), params.id, proof));
  });

  mountEndpoint(router, endpoints.adminResetTwoFactor, limits, async ({ principal, params }) => {
    const admin = await deps.users.profile(principal.userId);
    return twoFactor.resetByAdmin({ id: admin.id, name: admin.username }, params.id);
  });
}

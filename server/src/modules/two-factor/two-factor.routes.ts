import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState, Principal } from '../../http/context.ts';
import type { ProofOrSudo } from '@moonrelay/contract/two-factor';
import { mountEndpoint, requireRecentProof } from '../../http/endpoint.ts';
import { deviceOf } from '../auth/device.ts';
import type { SessionsService } from '../auth/sessions.service.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { PasskeysService } from './passkeys.service.ts';
import { relyingPartyOf } from './relying-party.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const isAdmin = (principal: Principal) => principal.kind === 'session' && principal.isAdmin;

interface Deps {
  twoFactor: TwoFactorService;
  sessions: SessionsService;
  passkeys: PasskeysService;
  accounts: AccountsService;
  users: UsersService;
  serverUrl: ServerUrl;
  /** Told of every sign-in with the address it came from (notifications: sign-in from a new address). */
  onSignIn: (userId: string, address: string) => void;
}

/** Setting up and turning off the second factors from Settings, the passkey step of sign-in, and the admin's reset. */
export function mountTwoFactorRoutes(router: Router<AppState>, limits: RateLimits, deps: Deps): void {
  const { twoFactor, passkeys, accounts, sessions } = deps;
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

  mountEndpoint(router, endpoints.loginPasskeyOptions, limits, async ({ body, ctx }) =>
    passkeys.signInOptions(await accounts.challengedUser(body.challenge), rp(ctx)),
  );
  mountEndpoint(router, endpoints.loginPasskey, limits, async ({ body, ctx }) => {
    const party = rp(ctx);
    const answer = await accounts.loginWithSecondFactor(
      body.challenge,
      (row) => passkeys.verifySignIn(row.id, body.credential, party),
      deviceOf(ctx),
    );
    deps.onSignIn(answer.user.id, ctx.ip);
    return answer;
  });

  mountEndpoint(router, endpoints.passkeySignInOptions, limits, ({ ctx }) => passkeys.firstFactorOptions(rp(ctx)));
  mountEndpoint(router, endpoints.passkeySignIn, limits, async ({ body, ctx }) => {
    const answer = await accounts.signInAs(await passkeys.verifyFirstFactor(body.credential, rp(ctx)), deviceOf(ctx));
    deps.onSignIn(answer.user.id, ctx.ip);
    return answer;
  });

  mountEndpoint(router, endpoints.adminResetTwoFactor, limits, async ({ principal, params }) => {
    const admin = await deps.users.profile(principal.userId);
    return twoFactor.resetByAdmin({ id: admin.id, name: admin.username }, params.id);
  });
}

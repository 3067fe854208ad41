import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
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
  passkeys: PasskeysService;
  accounts: AccountsService;
  users: UsersService;
  serverUrl: ServerUrl;
  /** Told of every sign-in with the address it came from (notifications: sign-in from a new address). */
  onSignIn: (userId: string, address: string) => void;
}

/** Setting up and turning off the second factors from Settings, the passkey step of sign-in, and the admin's reset. */
export function mountTwoFactorRoutes(router: Router<AppState>, limits: RateLimits, deps: Deps): void {
  const { twoFactor, passkeys, accounts } = deps;
  const rp = (ctx: AppContext) => relyingPartyOf(deps.serverUrl, { host: ctx.host, protocol: ctx.protocol });

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

  mountEndpoint(router, endpoints.listPasskeys, limits, ({ principal }) => passkeys.list(principal.userId));
  mountEndpoint(router, endpoints.passkeyRegistrationOptions, limits, ({ principal, body, ctx }) =>
    passkeys.registrationOptions(principal.userId, body, rp(ctx)),
  );
  mountEndpoint(router, endpoints.registerPasskey, limits, ({ principal, body, ctx }) =>
    passkeys.register(principal.userId, isAdmin(principal), body, rp(ctx)),
  );
  mountEndpoint(router, endpoints.removePasskey, limits, ({ principal, params, body }) =>
    passkeys.remove(principal.userId, isAdmin(principal), params.id, body),
  );

  mountEndpoint(router, endpoints.loginPasskeyOptions, limits, async ({ body, ctx }) =>
    passkeys.signInOptions(await accounts.challengedUser(body.challenge), rp(ctx)),
  );
  mountEndpoint(router, endpoints.loginPasskey, limits, async ({ body, ctx }) => {
    const party = rp(ctx);
    const answer = await accounts.loginWithSecondFactor(body.challenge, (row) =>
      passkeys.verifySignIn(row.id, body.credential, party),
    );
    deps.onSignIn(answer.user.id, ctx.ip);
    return answer;
  });

  mountEndpoint(router, endpoints.passkeySignInOptions, limits, ({ ctx }) => passkeys.firstFactorOptions(rp(ctx)));
  mountEndpoint(router, endpoints.passkeySignIn, limits, async ({ body, ctx }) => {
    const answer = await accounts.signInAs(await passkeys.verifyFirstFactor(body.credential, rp(ctx)));
    deps.onSignIn(answer.user.id, ctx.ip);
    return answer;
  });

  mountEndpoint(router, endpoints.adminResetTwoFactor, limits, async ({ principal, params }) => {
    const admin = await deps.users.profile(principal.userId);
    return twoFactor.resetByAdmin({ id: admin.id, name: admin.username }, params.id);
  });
}

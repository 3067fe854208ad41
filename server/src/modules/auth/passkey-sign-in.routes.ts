import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import type { PasskeysService } from '../two-factor/passkeys.service.ts';
import { relyingPartyOf } from '../two-factor/relying-party.ts';
import type { AccountsService } from './accounts.service.ts';
import { deviceOf } from './device.ts';

/** Signing in with a passkey: as the second step after the password, or on its own. */
export function mountPasskeySignInRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: {
    accounts: AccountsService;
    passkeys: PasskeysService;
    serverUrl: ServerUrl;
    /** Told of every sign-in with the address it came from (notifications: sign-in from a new address). */
    onSignIn: (userId: string, address: string) => void;
  },
): void {
  const { accounts, passkeys } = deps;
  const rp = (ctx: AppContext) => relyingPartyOf(deps.serverUrl, { host: ctx.host, protocol: ctx.protocol });

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
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { deviceOf } from './device.ts';
import type { OidcService } from './oidc.service.ts';

/** Sign-in with the identity provider, and linking it to an account from Settings. */
export function mountOidcRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  oidc: OidcService,
  /** Told of every sign-in with the address it came from (notifications: sign-in from a new address). */
  onSignIn: (userId: string, address: string) => void = () => {},
): void {
  mountEndpoint(router, endpoints.authProviders, limits, async () => oidc.providers());
  mountEndpoint(router, endpoints.googleSignInStart, limits, ({ body }) => oidc.startSignIn(body.redirectUri));
  mountEndpoint(router, endpoints.googleSignIn, limits, async ({ body, ctx }) => {
    const answer = await oidc.signIn(body, deviceOf(ctx));
    if ('token' in answer) onSignIn(answer.user.id, ctx.ip);
    return answer;
  });
  mountEndpoint(router, endpoints.signInMethods, limits, ({ principal }) => oidc.signInMethods(principal.userId));
  mountEndpoint(router, endpoints.googleLinkStart, limits, ({ principal, body }) =>
    oidc.startLink(principal.userId, body.redirectUri),
  );
  mountEndpoint(router, endpoints.googleLink, limits, ({ principal, body }) => oidc.link(principal.userId, body));
  mountEndpoint(router, endpoints.googleUnlink, limits, ({ principal }) => oidc.unlink(principal.userId));
}

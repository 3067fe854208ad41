import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ScriptLoaderService } from './script-loader.service.ts';

export function mountScriptLoaderRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { loader: ScriptLoaderService; publicUrl: string | undefined },
): void {
  const { loader } = deps;
  // Games reach the loader URL where people reach this server (PUBLIC_URL, else the caller's address).
  const serverUrl = (ctx: AppContext) => deps.publicUrl ?? `${ctx.protocol}://${ctx.host}`;

  mountEndpoint(router, endpoints.createTempScript, limits, ({ principal, body, ctx }) =>
    loader.keep(principal.userId, body.script, serverUrl(ctx)),
  );
  mountEndpoint(router, endpoints.loadTempScript, limits, ({ params, query }) => loader.load(params.id, query.key));
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppContext, AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ServerUrl } from '../../http/server-url.ts';
import type { ScriptLoaderService } from './script-loader.service.ts';

export function mountScriptLoaderRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { loader: ScriptLoaderService; serverUrl: ServerUrl },
): void {
  const { loader } = deps;
  const serverUrl = (ctx: AppContext) => deps.serverUrl({ host: ctx.host, protocol: ctx.protocol });

  mountEndpoint(router, endpoints.createTempScript, limits, ({ principal, body, ctx }) =>
    loader.keep(principal.userId, body.script, serverUrl(ctx)),
  );
  mountEndpoint(router, endpoints.deleteTempScript, limits, async ({ principal, params }) => {
    await loader.remove(principal.userId, params.id);
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.loadTempScript, limits, ({ params, query }) => loader.load(params.id, query.key));
}

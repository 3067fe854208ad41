import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountScriptLoaderRoutes } from './script-loader.routes.ts';
import { createScriptLoaderService } from './script-loader.service.ts';
import { createScriptTokens } from './script-tokens.ts';

/** The script loader: a saved script fetched by a game through a signed, lasting link. */
export function scriptLoaderModule(ctx: ModuleContext) {
  const scriptLoader = createScriptLoaderService({
    db: ctx.db,
    tokens: createScriptTokens(ctx.serverSecret, { lifetimeDays: ctx.config.loaderTokenDays }),
  });
  return moduleEntry({
    services: { scriptLoader },
    routes: (api) => mountScriptLoaderRoutes(api, ctx.rateLimits, { loader: scriptLoader, serverUrl: ctx.serverUrl }),
  });
}

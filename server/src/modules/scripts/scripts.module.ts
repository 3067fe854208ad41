import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountScriptRoutes } from './scripts.routes.ts';
import { createScriptsService } from './scripts.service.ts';

/** Saved scripts and their versions. */
export function scriptsModule(ctx: ModuleContext) {
  const scripts = createScriptsService({ db: ctx.db });
  return moduleEntry({
    services: { scripts },
    routes: (api) => mountScriptRoutes(api, ctx.rateLimits, scripts),
  });
}

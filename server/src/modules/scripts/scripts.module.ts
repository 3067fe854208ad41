import { moduleEntry, type ModuleContext } from '../module.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import { mountScriptShareRoutes } from './script-shares.routes.ts';
import { createScriptSharesService } from './script-shares.service.ts';
import { mountScriptRoutes } from './scripts.routes.ts';
import { createScriptsService } from './scripts.service.ts';

/** Saved scripts and their versions; read-only share links and copies into other teams. */
export function scriptsModule(ctx: ModuleContext, { teams }: { teams: TeamsService }) {
  const scripts = createScriptsService({ db: ctx.db });
  const scriptShares = createScriptSharesService({
    db: ctx.db,
    scripts,
    accessOf: (personId, teamId) => teams.accessOf(personId, teamId),
  });
  return moduleEntry({
    services: { scripts, scriptShares },
    routes: (api) => {
      mountScriptRoutes(api, ctx.rateLimits, scripts);
      mountScriptShareRoutes(api, ctx.rateLimits, scriptShares);
    },
  });
}

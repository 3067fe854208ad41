import type { Middleware } from 'koa';
import type { AppState } from '../../http/context.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { mountTeamRoutes } from './teams.routes.ts';
import { createTeamsService } from './teams.service.ts';

/**
 * Teams (docs/decisions/049-teams-as-accounts.md): teams and their members, invitation links, and
 * what a signed-in person holds on the team a request names. Built before the API keys, whose
 * check bounds a team's key by what its maker holds now.
 */
export function teamsModule(ctx: ModuleContext, { audit }: { audit: AuditService }) {
  const teams = createTeamsService({ db: ctx.db, bus: ctx.bus, audit });
  // Asked by the authorization step (http/endpoint.ts) only when a request names a team.
  const teamAccess: Middleware<AppState> = async (koa, next) => {
    const principal = koa.state.principal;
    if (principal?.kind === 'session') koa.state.teamAccess = (teamId) => teams.accessOf(principal.userId, teamId);
    await next();
  };
  return moduleEntry({
    services: { teams },
    routes: (api) => mountTeamRoutes(api, ctx.rateLimits, { teams, audit }),
    apiMiddleware: [teamAccess],
  });
}

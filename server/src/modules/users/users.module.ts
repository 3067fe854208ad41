import { moduleEntry, type ModuleContext } from '../module.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import { mountUserRoutes } from './users.routes.ts';
import { createUsersService } from './users.service.ts';

/** Users: profiles, roles and account deletion. */
export function usersModule(
  ctx: ModuleContext,
  needs: { apiKeys: ApiKeysService; audit: AuditService; teams: TeamsService },
) {
  const users = createUsersService({ db: ctx.db, bus: ctx.bus, ...needs });
  return moduleEntry({
    services: { users },
    routes: (api) => mountUserRoutes(api, ctx.rateLimits, users),
  });
}

import { moduleEntry, type ModuleContext } from '../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import { mountApiKeyRoutes } from './api-keys.routes.ts';
import { createApiKeysService } from './api-keys.service.ts';
import { usersRepo } from '../users/users.repo.ts';
import { auditKeyChanges, type ActorName } from './key-changes.ts';

/** API keys: the personal key, scoped keys, and the audit of what changed through a key. */
export function apiKeysModule(ctx: ModuleContext, { audit, teams }: { audit: AuditService; teams: TeamsService }) {
  const { db, bus } = ctx;
  const apiKeys = createApiKeysService({
    db,
    box: ctx.secretBox('api-keys'),
    bus,
    creatorAccess: (memberId, teamId) => teams.accessOf(memberId, teamId),
  });
  // The audit names who changed a key by their username. Read from the accounts table, not through
  // the users service: users is built after API keys and takes their service, so asking it would
  // make each module need the other.
  const actorName: ActorName = (userId) => usersRepo.usernameOf(db, userId);
  return moduleEntry({
    services: { apiKeys },
    routes: (api) => mountApiKeyRoutes(api, ctx.rateLimits, { apiKeys, audit, actorName }),
    apiMiddleware: [auditKeyChanges({ audit, actorName })],
  });
}

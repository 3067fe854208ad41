import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import type { Idempotency } from '../../http/idempotency.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AdminService } from './admin.service.ts';
import type { MassExecution } from './mass-execution.ts';

/** Every route here is 'admin' in the contract: the endpoint layer answers 403 to anyone else. */
export function mountAdminRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { idempotency: Idempotency; admin: AdminService; massExecution: MassExecution; users: UsersService },
): void {
  const { admin, massExecution } = deps;
  const actor = async (principal: Principal): Promise<AuditActor> => {
    const user = await deps.users.profile(principal.userId);
    return { id: user.id, name: user.username };
  };

  mountEndpoint(router, endpoints.adminUsers, limits, ({ query }) => admin.users(query));
  mountEndpoint(router, endpoints.adminTeams, limits, ({ query }) => admin.teams(query));
  mountEndpoint(router, endpoints.adminConnections, limits, ({ query }) => admin.connections(query));
  mountEndpoint(router, endpoints.adminAudit, limits, ({ query }) => deps.admin.audit(query));
  mountEndpoint(router, endpoints.adminRecentExecutions, limits, ({ query }) => admin.recentExecutions(query));
  mountEndpoint(router, endpoints.adminRegenerateKey, limits, async ({ principal, params }) =>
    admin.regenerateKey(await actor(principal), params.id),
  );
  mountEndpoint(router, endpoints.adminUserApiKeys, limits, ({ params }) => admin.apiKeys(params.id));
  mountEndpoint(router, endpoints.adminRevokeApiKey, limits, async ({ principal, params }) =>
    admin.revokeApiKey(await actor(principal), params.id, params.keyId),
  );
  mountEndpoint(router, endpoints.adminCommand, limits, async ({ principal, params, body }) =>
    admin.command(await actor(principal), params.id, body),
  );
  mountEndpoint(router, endpoints.adminExecuteScript, limits, async ({ principal, params, body }) =>
    admin.executeScript(await actor(principal), params.id, (body.script ?? body.code)!, body.serverId),
  );
  mountEndpoint(router, endpoints.adminSetRole, limits, async ({ principal, params, body }) =>
    admin.setRole(await actor(principal), params.id, body.isAdmin),
  );
  mountEndpoint(
    router,
    endpoints.adminMassExecution,
    limits,
    deps.idempotency.wrap(endpoints.adminMassExecution, async ({ principal, body }) =>
      massExecution.start(await actor(principal), body),
    ),
  );
  mountEndpoint(router, endpoints.adminMassExecutionProgress, limits, ({ params }) =>
    massExecution.batch(params.batchId),
  );
}

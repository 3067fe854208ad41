import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import { actorOf } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { TeamActor, TeamsService } from './teams.service.ts';

/** The person changing the team the request acts on, with what they hold in it. */
const actorIn = (principal: Principal): TeamActor => ({ userId: actorOf(principal), held: principal.held ?? 'all' });

export function mountTeamRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { teams: TeamsService; audit: AuditService },
): void {
  const { teams, audit } = deps;
  mountEndpoint(router, endpoints.teamActivity, limits, ({ principal, query }) =>
    audit.teamActivity(principal.userId, query),
  );
  mountEndpoint(router, endpoints.listTeams, limits, ({ principal }) => teams.list(principal.userId));
  mountEndpoint(router, endpoints.createTeam, limits, ({ principal, body }) =>
    teams.create(principal.userId, body.name),
  );
  // The team routes name their team in the path: by then the principal acts on it (http/endpoint.ts).
  mountEndpoint(router, endpoints.getTeam, limits, ({ principal }) =>
    teams.details(principal.userId, actorIn(principal)),
  );
  mountEndpoint(router, endpoints.deleteTeam, limits, async ({ principal }) => {
    await teams.remove(principal.userId, actorIn(principal));
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.createInvitation, limits, ({ principal, body }) =>
    teams.invite(principal.userId, actorIn(principal), body),
  );
  mountEndpoint(router, endpoints.revokeInvitation, limits, async ({ principal, params }) => {
    await teams.revokeInvitation(principal.userId, actorIn(principal), params.invitationId);
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.previewInvitation, limits, ({ params }) => teams.preview(params.token));
  mountEndpoint(router, endpoints.acceptInvitation, limits, ({ principal, body }) =>
    teams.accept(principal.userId, body.token),
  );
  mountEndpoint(router, endpoints.updateMember, limits, ({ principal, params, body }) =>
    teams.updateMember(principal.userId, actorIn(principal), params.userId, body),
  );
  mountEndpoint(router, endpoints.removeMember, limits, async ({ principal, params }) => {
    await teams.removeMember(principal.userId, actorIn(principal), params.userId);
    return { success: true as const };
  });
}

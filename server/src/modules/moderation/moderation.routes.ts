import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState, type Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { playersOwner, type PlayersViewer } from '../players/players.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { ModerationService } from './moderation.service.ts';

/** An admin acting through their session (a key never carries the admin's reach). */
const viewerOf = (principal: Principal): PlayersViewer => ({
  userId: principal.userId,
  isAdmin: principal.kind === 'session' && principal.isAdmin && !principal.adminNeedsTwoFactor,
});

/**
 * The moderation routes. Mounted before the players routes, so /api/players/bans is not read as a
 * player id. Whose players an action touches is always decided by playersOwner.
 */
export function mountModerationRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { moderation: ModerationService; users: UsersService },
): void {
  const { moderation } = deps;
  // The person who acted (a team's moderator, not the team): the history and the audit name them.
  const actor = async (principal: Principal): Promise<AuditActor> => {
    const user = await deps.users.profile(actorOf(principal));
    return { id: user.id, name: user.username };
  };
  const owner = (principal: Principal, ownerId: string | undefined) => playersOwner(viewerOf(principal), ownerId);

  mountEndpoint(router, endpoints.listBans, limits, ({ principal, query }) =>
    moderation.bans(owner(principal, query.ownerId), query),
  );
  mountEndpoint(router, endpoints.banPlayers, limits, async ({ principal, query, body }) => ({
    actions: await moderation.ban(owner(principal, query.ownerId), await actor(principal), body.userIds, body),
  }));
  mountEndpoint(router, endpoints.playerModeration, limits, ({ principal, params, query }) =>
    moderation.history(owner(principal, query.ownerId), params.userId, query.limit),
  );
  mountEndpoint(router, endpoints.addPlayerNote, limits, async ({ principal, params, query, body }) =>
    moderation.note(owner(principal, query.ownerId), await actor(principal), params.userId, body.text),
  );
  mountEndpoint(router, endpoints.warnPlayer, limits, async ({ principal, params, query, body }) =>
    moderation.warn(owner(principal, query.ownerId), await actor(principal), params.userId, body.message),
  );
  mountEndpoint(router, endpoints.kickPlayer, limits, async ({ principal, params, query, body }) =>
    moderation.kick(owner(principal, query.ownerId), await actor(principal), params.userId, body.message),
  );
  mountEndpoint(router, endpoints.banPlayer, limits, async ({ principal, params, query, body }) => {
    const [action] = await moderation.ban(
      owner(principal, query.ownerId),
      await actor(principal),
      [params.userId],
      body,
    );
    return action!;
  });
  mountEndpoint(router, endpoints.editBan, limits, async ({ principal, params, query, body }) =>
    moderation.editBan(owner(principal, query.ownerId), await actor(principal), params.userId, body),
  );
  mountEndpoint(router, endpoints.unbanPlayer, limits, async ({ principal, params, query, body }) =>
    moderation.unban(owner(principal, query.ownerId), await actor(principal), params.userId, body.reason),
  );
}

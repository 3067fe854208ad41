import { isSimulatedServerId } from '@moonrelay/contract/simulator';
import type { AuditService } from '../audit/audit.service.ts';
import type { CommandsService } from '../game/commands.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { Notifier } from '../notifications/notifier.ts';
import type { BansService } from '../open-cloud/bans.service.ts';
import type { Restrictions } from '../open-cloud/restrictions.ts';
import { realServers } from '../simulator/simulated-servers.ts';
import type { UsersService } from '../users/users.service.ts';
import { mountModerationRoutes } from './moderation.routes.ts';
import { createModerationService } from './moderation.service.ts';

/** How often bans waiting for a live server are offered to one, and stranded results settled. */
const MODERATION_SWEEP_MS = 5_000;
/** Roblox's bans in force listed beside Moonrelay's own (GET /api/players/bans). */
const BANS_FROM_ROBLOX_LISTED = 1_000;

/**
 * Moderation: notes, warnings, kicks and bans of players, carried out as game commands, through
 * Open Cloud when the owner saved a key, and on every server that connects while a ban waits.
 * Simulated game servers take no bans (modules/simulator).
 */
export function moderationModule(
  ctx: ModuleContext,
  needs: {
    audit: AuditService;
    users: UsersService;
    commands: CommandsService;
    gameLink: GameLinkService;
    notifier: Notifier;
    restrictions: Restrictions;
    bans: BansService;
  },
) {
  const { logger, reactions } = ctx;
  const { gameLink, restrictions, bans, notifier } = needs;
  const moderation = createModerationService({
    db: ctx.db,
    audit: needs.audit,
    commands: needs.commands,
    liveServers: async (ownerId) => realServers(await gameLink.liveServers(ownerId)),
    raise: (userId, build) => notifier.raise(userId, build),
    openCloud: {
      hasKey: (ownerId) => restrictions.hasKey(ownerId),
      enqueue: (request) => restrictions.enqueue(request),
      find: (actionId) => restrictions.find(actionId),
      activeBans: async (ownerId) => (await bans.list(ownerId, BANS_FROM_ROBLOX_LISTED)).active,
      forgetImportedBan: (trx, ownerId, robloxUserId) => bans.forget(trx, ownerId, robloxUserId),
    },
    logger,
  });

  // Bans, kicks and warnings are game commands: their results settle the actions.
  reactions.on('commands:finished', (finished) => moderation.commandsFinished(finished));
  // Bans and unbans sent through Open Cloud end in the moderation rows that asked for them.
  reactions.on('open-cloud:outcome', ({ actionId, outcome }) => {
    moderation
      .recordBanOutcome(actionId, outcome)
      .catch((error: unknown) => logger.warn({ err: error, actionId }, 'recording an Open Cloud outcome failed'));
  });
  // A server that just connected takes the bans and unbans waiting for one.
  reactions.on('game:server-pinged', (presence) => {
    if (isSimulatedServerId(presence.serverId) || presence.connectedAtMs !== presence.lastPingMs) return;
    moderation
      .serverConnected(presence.userId)
      .catch((error: unknown) => logger.warn({ err: error }, 'sending waiting bans failed; the sweep retries'));
  });

  return moduleEntry({
    services: { moderation },
    routes: (api) => mountModerationRoutes(api, ctx.rateLimits, { moderation, users: needs.users }),
    sweeps: [{ name: 'moderation sweep', everyMs: MODERATION_SWEEP_MS, run: () => moderation.sweep() }],
  });
}

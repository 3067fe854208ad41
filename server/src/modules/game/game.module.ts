import type { CommandView } from '@moonrelay/contract/game';
import type { ServerPresence } from '../../platform/presence.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { ConsoleService } from '../console/console.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { Roster } from '../players/roster.ts';
import { createBusWaits } from './bus-waits.ts';
import { createCommandsService } from './commands.service.ts';
import { createConnectAdmission } from './connect-admission.ts';
import { mountGameRoutes } from './game.routes.ts';
import { createGameLinkService } from './game-link.service.ts';
import { createPlayerProfiles } from './player-profiles.ts';
import { createServerChanges } from './server-changes.ts';

declare module '../../platform/reactions.ts' {
  interface ReactionEvents {
    /** Commands ended (a result, an error, expiry): the runs and moderation actions they carried end too. */
    'commands:finished': CommandView[];
    /** Commands moved on (queued, taken by a game, finished): mass executions follow their parts. */
    'commands:moved': CommandView[];
    /** A game server pinged; it has just connected when `connectedAtMs === lastPingMs`. */
    'game:server-pinged': ServerPresence;
    /** A game server stopped pinging (the disconnect sweep saw it go). */
    'game:server-gone': ServerPresence;
  }
}

/** How often presence is checked for games that stopped pinging, and commands for ones that ran out of time. */
const DISCONNECT_SWEEP_MS = 1_000;
const COMMAND_SWEEP_MS = 5_000;

/**
 * The game link: game servers' pings (presence, long-polls), the commands sent to them and their
 * results, and the live list of servers the dashboards show.
 */
export function gameModule(ctx: ModuleContext, needs: { consoleLines: ConsoleService; roster: Roster }) {
  const { db, bus, config, logger, platform, reactions } = ctx;
  const waits = createBusWaits(bus);
  const commands = createCommandsService({
    db,
    bus,
    onFinished: async (finished) => {
      await reactions.tell('commands:finished', finished);
    },
    onMoved: async (moved) => {
      await reactions.tell('commands:moved', moved);
    },
  });
  const serverChanges = createServerChanges(bus);
  const changes: typeof serverChanges = {
    ...serverChanges,
    pinged(presence) {
      void reactions.tell('game:server-pinged', presence);
      serverChanges.pinged(presence);
    },
    gone(presence) {
      void reactions.tell('game:server-gone', presence);
      serverChanges.gone(presence);
    },
  };
  const admission = createConnectAdmission({
    maxLagMs: config.gameShedLagMs,
    refused: platform.metrics.counter(
      'moonrelay_game_connects_refused_total',
      'Game servers refused a connection (503) while the event loop was behind',
    ),
  });
  const gameLink = createGameLinkService({
    db,
    presence: ctx.presence,
    commands,
    waits,
    changes,
    admission,
    consoleLines: needs.consoleLines,
    roster: needs.roster,
    newServers: ctx.counter('game-new-servers', config.gameNewServersPerKeyPerMinute, 60),
    logger,
  });
  // Redis restarted empty: the servers whose pings are held here are alive; say so at once.
  platform.onRedisRestored(() => {
    gameLink.restoreHeldPresence().catch((error: unknown) => logger.warn({ err: error }, 'presence restore failed'));
  });
  const profiles = createPlayerProfiles(config.roblox);

  return moduleEntry({
    services: { waits, commands, serverChanges, admission, gameLink, profiles },
    routes: (api, later: { apiKeys: ApiKeysService; luaTools: HttpLuaTools }) =>
      mountGameRoutes(api, ctx.rateLimits, {
        idempotency: ctx.idempotency,
        gameLink,
        apiKeys: later.apiKeys,
        luaTools: later.luaTools,
        profiles,
        serverUrl: ctx.serverUrl,
      }),
    sweeps: [
      { name: 'disconnect sweep', everyMs: DISCONNECT_SWEEP_MS, run: () => gameLink.sweepDisconnected() },
      {
        name: 'command sweep',
        everyMs: COMMAND_SWEEP_MS,
        run: async () => {
          await commands.sweep();
          await commands.refreshHint();
        },
      },
    ],
    // The open-commands hint loads at once; until then every ping asks the database.
    start: async () => {
      void commands.refreshHint().catch((error: unknown) => logger.error({ err: error }, 'command hint failed'));
    },
    drain: () => waits.releaseAll(),
    close: async () => {
      waits.releaseAll();
      await gameLink.flushSaves();
      // The broadcasts' last totals are told before the bus closes.
      await commands.flushBroadcastProgress().catch(() => undefined);
      commands.close();
      serverChanges.close();
      admission.close();
    },
  });
}

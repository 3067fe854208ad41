import { isLive } from '../../platform/presence.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { ConsoleService } from '../console/console.service.ts';
import { mountPlayerRoutes } from './players.routes.ts';
import { createPlayersService } from './players.service.ts';
import { createRoster, ROSTER_SWEEP_MS } from './roster.ts';

/** Players: who is in which game server now (the roster), and every player's record. */
export function playersModule(ctx: ModuleContext, { consoleLines }: { consoleLines: ConsoleService }) {
  const { config, presence } = ctx;
  const roster = createRoster({
    db: ctx.db,
    bus: ctx.bus,
    logger: ctx.logger,
    sessionRetentionDays: config.playerSessionRetentionDays,
    recordsMax: config.playerRecordsMax,
    recordsKeepDays: config.playerRecordsKeepDays,
    notice: (userId, serverId, text, atMs) => consoleLines.notice(userId, serverId, text, atMs),
    isLive: async (userId, serverId) => {
      const server = await presence.get(userId, serverId);
      return server !== undefined && isLive(server, Date.now());
    },
  });
  const players = createPlayersService({ db: ctx.db });
  return moduleEntry({
    services: { roster, players },
    routes: (api) => mountPlayerRoutes(api, ctx.rateLimits, players),
    sweeps: [{ name: 'player sessions sweep', everyMs: ROSTER_SWEEP_MS, run: () => roster.sweep() }],
  });
}

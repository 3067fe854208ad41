import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountConsoleRoutes } from './console.routes.ts';
import { createConsoleService } from './console.service.ts';

/** How often game servers' consoles are pruned to the newest lines kept. */
const CONSOLE_PRUNE_MS = 5_000;

/** The game console: what game servers print, kept per server and pushed live. */
export function consoleModule(ctx: ModuleContext) {
  const consoleLines = createConsoleService({
    db: ctx.db,
    bus: ctx.bus,
    logger: ctx.logger,
    keepPerServer: ctx.config.console.linesPerServer,
    userLinesPerMinute: ctx.config.console.userLinesPerMinute,
  });
  return moduleEntry({
    services: { consoleLines },
    routes: (api) => mountConsoleRoutes(api, ctx.rateLimits, consoleLines),
    sweeps: [{ name: 'console prune', everyMs: CONSOLE_PRUNE_MS, run: () => consoleLines.prune() }],
    // The lines still queued are stored (the pings that brought them were answered).
    close: () => consoleLines.close(),
  });
}

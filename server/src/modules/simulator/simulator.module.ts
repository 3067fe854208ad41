import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { SandboxRunner } from '../executions/executions.service.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountSimulatorRoutes } from './simulator.routes.ts';
import { createSimulator } from './simulator.service.ts';

/**
 * The dashboard's simulated game server: a game client run by this server against its own game
 * routes, running code where dry runs do (docs/decisions/045).
 */
export function simulatorModule(ctx: ModuleContext, needs: { apiKeys: ApiKeysService; sandbox: SandboxRunner }) {
  const simulator = createSimulator({
    apiKeys: needs.apiKeys,
    sandbox: needs.sandbox,
    presence: ctx.presence,
    bus: ctx.bus,
    logger: ctx.logger,
    otherInstances: ctx.platform.mode === 'scale-out',
  });
  return moduleEntry({
    services: { simulator },
    routes: (api) => mountSimulatorRoutes(api, ctx.rateLimits, simulator),
    attach: (server) => simulator.serveFrom(server),
    // Simulated servers stop first: their held pings, released next, are followed by their last
    // ping rather than another long-poll.
    drain: () => void simulator.stopAll(),
    close: () => simulator.close(),
  });
}

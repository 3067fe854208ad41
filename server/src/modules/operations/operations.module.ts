import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountOperationsRoutes } from './operations.routes.ts';

/** Health (live and ready) and the Prometheus metrics, for whoever runs Moonrelay. */
export function operationsModule(ctx: ModuleContext) {
  return moduleEntry({
    services: {},
    routes: (api) =>
      mountOperationsRoutes(api, ctx.rateLimits, {
        db: ctx.db,
        platform: ctx.platform,
        metrics: ctx.platform.metrics,
        metricsToken: ctx.config.metricsToken,
      }),
  });
}

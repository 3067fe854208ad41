import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountCatalogueRoutes } from './catalogue.routes.ts';
import { createCatalogueService } from './catalogue.service.ts';

/** The script catalogue (ScriptBlox), fetched through the server with caching and a breaker. */
export function catalogueModule(ctx: ModuleContext) {
  const { platform } = ctx;
  // The breaker's "open for N ms" is a pause every instance sees: the shared pacer's pause is just that.
  const breakerPause = platform.sharedPacing?.('catalogue-breaker');
  const catalogue = createCatalogueService(ctx.config.catalogue, {
    logger: ctx.logger,
    shared: platform.sharedPacing?.('catalogue'),
    sharedBreaker: breakerPause && {
      store: { open: (ms) => breakerPause.pacer.pause(ms), openFor: () => breakerPause.pacer.pausedFor() },
      onError: breakerPause.onError,
    },
  });
  return moduleEntry({
    services: { catalogue },
    routes: (api) => mountCatalogueRoutes(api, ctx.rateLimits, catalogue),
  });
}

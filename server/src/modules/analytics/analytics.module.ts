import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountAnalyticsRoutes } from './analytics.routes.ts';
import { createAnalyticsService } from './analytics.service.ts';
import { createRequestMetrics } from './request-metrics.ts';

/** Usage analytics: requests counted in memory, written in bulk every few seconds (docs/decisions/013). */
export function analyticsModule(ctx: ModuleContext) {
  const requestMetrics = createRequestMetrics({ db: ctx.db, logger: ctx.logger });
  const analytics = createAnalyticsService({ db: ctx.db, flushMetrics: requestMetrics.flush });
  return moduleEntry({
    services: { requestMetrics, analytics },
    routes: (api) => mountAnalyticsRoutes(api, ctx.rateLimits, analytics),
    // Counts of the last seconds, written once nothing else is running (the database closes after).
    release: () => requestMetrics.close(),
  });
}

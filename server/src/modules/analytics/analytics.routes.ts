import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { AnalyticsService } from './analytics.service.ts';

export function mountAnalyticsRoutes(router: Router<AppState>, limits: RateLimits, analytics: AnalyticsService): void {
  mountEndpoint(router, endpoints.analyticsUsage, limits, ({ principal, query }) =>
    analytics.usage(principal.userId, query.period),
  );
  mountEndpoint(router, endpoints.analyticsScripts, limits, ({ principal, query }) =>
    analytics.scripts(principal.userId, query.period),
  );
}

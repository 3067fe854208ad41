import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { RunsService } from './runs.service.ts';

export function mountRunRoutes(router: Router<AppState>, limits: RateLimits, runs: RunsService): void {
  mountEndpoint(router, endpoints.listExecutions, limits, ({ principal, query }) => runs.list(principal.userId, query));
  mountEndpoint(router, endpoints.getExecution, limits, ({ principal, params }) =>
    runs.get(principal.userId, params.id),
  );
}

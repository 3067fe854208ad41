import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { RunsService } from './runs.service.ts';

export function mountRunRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  runs: RunsService,
  cloud: { cancel(ownerId: string, executionId: string): Promise<void> },
): void {
  mountEndpoint(router, endpoints.listExecutions, limits, ({ principal, query }) => runs.list(principal.userId, query));
  mountEndpoint(router, endpoints.getExecution, limits, ({ principal, params }) =>
    runs.get(principal.userId, params.id),
  );
  // Only a cloud run waiting in Moonrelay's queue can be taken back; the answer is the run as it ends.
  mountEndpoint(router, endpoints.cancelExecution, limits, async ({ principal, params }) => {
    await cloud.cancel(principal.userId, params.id);
    return runs.get(principal.userId, params.id);
  });
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { CloudRuns } from './cloud-runs.ts';

export function mountCloudRunRoutes(router: Router<AppState>, limits: RateLimits, cloudRuns: CloudRuns): void {
  // Whoever may start a cloud run may know where it runs; the key itself stays with its managers.
  mountEndpoint(router, endpoints.getCloudPlace, limits, ({ principal }) => cloudRuns.placeStatus(principal.userId));
}

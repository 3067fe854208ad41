import type Router from '@koa/router';
import type { AppState } from '../../http/context.ts';
import { rateLimit, type RateLimits } from '../../http/rate-limit.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { Config } from '../../config.ts';

export function mountOpenApiRoute(router: Router<AppState>, limits: RateLimits, perMinute: Config['rateLimit']): void {
  // The document depends only on the contract and the configured budgets: build it once.
  const document = buildOpenApiDocument({
    general: perMinute.generalPerMinute,
    execution: perMinute.executionPerMinute,
    game: perMinute.gamePingPerMinute,
  });
  router.get('/api/openapi.json', rateLimit(limits.general), (ctx) => {
    ctx.body = document;
  });
}

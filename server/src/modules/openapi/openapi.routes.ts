import type Router from '@koa/router';
import type { AppState } from '../../http/context.ts';
import { rateLimit, type RateLimits } from '../../http/rate-limit.ts';
import { buildOpenApiDocument } from './openapi.ts';

export function mountOpenApiRoute(router: Router<AppState>, limits: RateLimits): void {
  // The document depends only on the contract: build it once.
  const document = buildOpenApiDocument();
  router.get('/api/openapi.json', rateLimit(limits.general), (ctx) => {
    ctx.body = document;
  });
}

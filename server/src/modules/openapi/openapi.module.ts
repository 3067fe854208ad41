import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountOpenApiRoute } from './openapi.routes.ts';

/** The API's OpenAPI document, built from the contract and the configured budgets. */
export function openApiModule(ctx: ModuleContext) {
  return moduleEntry({
    services: {},
    routes: (api) => mountOpenApiRoute(api, ctx.rateLimits, ctx.config.rateLimit),
  });
}

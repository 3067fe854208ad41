import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ScriptsService } from './scripts.service.ts';

export function mountScriptRoutes(router: Router<AppState>, limits: RateLimits, scripts: ScriptsService): void {
  mountEndpoint(router, endpoints.listScripts, limits, ({ principal }) => scripts.list(principal.userId));
  mountEndpoint(router, endpoints.getScript, limits, ({ principal, params }) =>
    scripts.get(principal.userId, params.id),
  );
  mountEndpoint(router, endpoints.createScript, limits, ({ principal, body }) =>
    scripts.create(principal.userId, body),
  );
  mountEndpoint(router, endpoints.updateScript, limits, ({ principal, params, body }) =>
    scripts.update(principal.userId, params.id, body),
  );
  mountEndpoint(router, endpoints.deleteScript, limits, async ({ principal, params }) => {
    await scripts.remove(principal.userId, params.id);
    return { success: true as const };
  });
}

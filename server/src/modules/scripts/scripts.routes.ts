import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState, Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { SaveChannel, ScriptsService } from './scripts.service.ts';

export function mountScriptRoutes(router: Router<AppState>, limits: RateLimits, scripts: ScriptsService): void {
  mountEndpoint(router, endpoints.listScripts, limits, ({ principal }) => scripts.list(principal.userId));
  mountEndpoint(router, endpoints.getScript, limits, ({ principal, params }) =>
    scripts.get(principal.userId, params.id),
  );
  mountEndpoint(router, endpoints.createScript, limits, ({ principal, body }) =>
    scripts.create(principal.userId, body, channelOf(principal)),
  );
  mountEndpoint(router, endpoints.updateScript, limits, ({ principal, params, body }) =>
    scripts.update(principal.userId, params.id, body, channelOf(principal)),
  );
  mountEndpoint(router, endpoints.deleteScript, limits, async ({ principal, params }) => {
    await scripts.remove(principal.userId, params.id);
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.listScriptVersions, limits, ({ principal, params }) =>
    scripts.versions(principal.userId, params.id),
  );
  mountEndpoint(router, endpoints.getScriptVersion, limits, ({ principal, params }) =>
    scripts.version(principal.userId, params.id, params.n),
  );
  mountEndpoint(router, endpoints.restoreScriptVersion, limits, ({ principal, params }) =>
    scripts.restore(principal.userId, params.id, params.n),
  );
}

/** A save made with the API key says so in the script's history. */
const channelOf = (principal: Principal): SaveChannel => (principal.kind === 'api-key' ? 'key' : 'session');

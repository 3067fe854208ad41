import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState, type Principal } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import { hasScope } from '../../http/key-scopes.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { SaveChannel, ScriptsService } from './scripts.service.ts';

export function mountScriptRoutes(router: Router<AppState>, limits: RateLimits, scripts: ScriptsService): void {
  // A key of the `game` scope alone reads the auto-execute scripts, which is what the game runs.
  mountEndpoint(router, endpoints.listScripts, limits, async ({ principal }) => {
    const all = await scripts.list(principal.userId);
    return hasScope(principal, 'scripts:read') ? all : all.filter((script) => script.isAutoExecute);
  });
  // Before getScript: /api/scripts/:id would otherwise take 'page' for a script's id (and answer 404).
  mountEndpoint(router, endpoints.listScriptPage, limits, ({ principal, query }) =>
    scripts.page(principal.userId, query, { autoExecuteOnly: !hasScope(principal, 'scripts:read') }),
  );
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
    scripts.restore(principal.userId, params.id, params.n, channelOf(principal)),
  );
}

/** A save made with an API key says so, and which key, in the script's history; and who made it. */
const channelOf = (principal: Principal): SaveChannel => ({
  ...(principal.kind === 'api-key' ? { via: 'key' as const, keyName: principal.keyName } : { via: 'session' as const }),
  by: actorOf(principal),
});

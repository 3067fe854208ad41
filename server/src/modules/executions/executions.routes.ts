import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ExecutionsService } from './executions.service.ts';

export function mountExecutionRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  executions: ExecutionsService,
): void {
  mountEndpoint(router, endpoints.executeCode, limits, ({ principal, body }) =>
    executions.runCode(principal.userId, (body.code ?? body.loadstring)!, body.target, body.serverId),
  );
  mountEndpoint(router, endpoints.executeScript, limits, ({ principal, params, body }) =>
    executions.runScript(principal.userId, params.id, body.target, body.serverId),
  );
}

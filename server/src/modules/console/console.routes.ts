import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { ConsoleService } from './console.service.ts';

/**
 * The game console: a user's own lines (session or API key), their error counts, and any user's
 * lines for admins (the endpoint layer answers 403 to anyone else; an unknown user is 404).
 */
export function mountConsoleRoutes(router: Router<AppState>, limits: RateLimits, consoleLines: ConsoleService): void {
  mountEndpoint(router, endpoints.gameConsole, limits, ({ principal, query }) =>
    consoleLines.page(principal.userId, query),
  );
  mountEndpoint(router, endpoints.gameConsoleErrors, limits, ({ principal }) =>
    consoleLines.errorCounts(principal.userId),
  );
  mountEndpoint(router, endpoints.adminUserConsole, limits, ({ params, query }) =>
    consoleLines.pageOfUser(params.id, query),
  );
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { HttpLuaTools } from './lua-tools.http.ts';

export function mountLuaToolsRoutes(router: Router<AppState>, limits: RateLimits, luaTools: HttpLuaTools): void {
  mountEndpoint(router, endpoints.checkLua, limits, ({ body }) => luaTools.check(body.code));
  mountEndpoint(router, endpoints.formatLua, limits, ({ body }) => luaTools.format(body.code));
}

import { moduleEntry, type ModuleContext } from '../module.ts';
import { luaToolsForHttp } from './lua-tools.http.ts';
import { mountLuaToolsRoutes } from './lua-tools.routes.ts';
import { createLuaToolsService } from './lua-tools.service.ts';

/** Checking and formatting Luau, in threads of their own (started on first use). */
export function luaToolsModule(ctx: ModuleContext) {
  const threads = createLuaToolsService();
  const luaTools = luaToolsForHttp(threads);
  return moduleEntry({
    services: { luaTools },
    routes: (api) => mountLuaToolsRoutes(api, ctx.rateLimits, luaTools),
    release: () => threads.close(),
  });
}

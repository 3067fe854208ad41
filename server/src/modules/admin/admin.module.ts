import { GAME_COMMAND_EXPIRY_MS } from '@moonrelay/contract/constants';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ExecutionsService } from '../executions/executions.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { UsersService } from '../users/users.service.ts';
import { mountAdminRoutes } from './admin.routes.ts';
import { createAdminService } from './admin.service.ts';
import { createMassExecution } from './mass-execution.ts';
import { createMassProgress } from './mass-progress.ts';

/** How often mass-execution parts whose commands went quiet are settled. */
const MASS_PROGRESS_SWEEP_MS = 5_000;

/** The admin panel: users, live connections, recent runs, and mass execution over many games. */
export function adminModule(
  ctx: ModuleContext,
  needs: {
    apiKeys: ApiKeysService;
    users: UsersService;
    audit: AuditService;
    gameLink: GameLinkService;
    executions: ExecutionsService;
    luaTools: HttpLuaTools;
  },
) {
  const { db, bus, jobs } = ctx;
  // Mass-execution parts move on with their commands, in whichever process records the step.
  const massProgress = createMassProgress({ db, bus, claimExpiryMs: GAME_COMMAND_EXPIRY_MS });
  ctx.reactions.on('commands:moved', (moved) => massProgress.commandsChanged(moved));
  const admin = createAdminService({ db, bus, presence: ctx.presence, ...needs });
  const massExecution = createMassExecution({
    db,
    jobs,
    audit: needs.audit,
    gameLink: needs.gameLink,
    executions: needs.executions,
    luaTools: needs.luaTools,
    progress: massProgress,
  });
  return moduleEntry({
    services: { admin, massExecution, massProgress },
    routes: (api) =>
      mountAdminRoutes(api, ctx.rateLimits, { idempotency: ctx.idempotency, admin, massExecution, users: needs.users }),
    sweeps: [{ name: 'mass progress sweep', everyMs: MASS_PROGRESS_SWEEP_MS, run: () => massProgress.sweep() }],
  });
}

import type { ExecutionsService } from '../executions/executions.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createScheduleAudit } from './schedule-audit.ts';
import { createScheduleRuns } from './schedule-runs.ts';
import { mountScheduleRoutes } from './schedules.routes.ts';
import { createSchedulesService } from './schedules.service.ts';

/** Scheduled runs of saved scripts; their due times run wherever the job queue runs jobs. */
export function schedulesModule(
  ctx: ModuleContext,
  needs: { executions: ExecutionsService; gameLink: GameLinkService; teams: TeamsService; audit: AuditService },
) {
  const { db, jobs, logger, config } = ctx;
  const schedules = createSchedulesService({ db, jobs, minIntervalSeconds: config.scheduleMinIntervalSeconds });
  // Due times run wherever the queue runs jobs: this server (embedded) or a worker (scale-out).
  const scheduleRuns = createScheduleRuns({
    db,
    bus: ctx.bus,
    jobs,
    executions: needs.executions,
    liveServers: needs.gameLink.liveServers,
    budget: ctx.rateLimits.execution,
    accessOf: (memberId, teamId) => needs.teams.accessOf(memberId, teamId),
  });
  // Schedules are set up with the job queue at start-up, and again when Redis comes back empty.
  const setUp = () =>
    schedules
      .start()
      .then((count) => count && logger.info({ schedules: count }, 'schedules set up'))
      .catch((error: unknown) => logger.error({ err: error }, 'setting schedules up failed'));
  return moduleEntry({
    services: { schedules, scheduleRuns },
    routes: (api) =>
      mountScheduleRoutes(api, ctx.rateLimits, {
        schedules,
        recordChange: createScheduleAudit({ db, audit: needs.audit }),
      }),
    start: async () => {
      await setUp();
      ctx.platform.onRedisRestored(() => void setUp());
    },
  });
}

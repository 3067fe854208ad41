import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { mountEndpoint, requirePermission } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { runPermissionOf, type SchedulesService } from './schedules.service.ts';

export function mountScheduleRoutes(router: Router<AppState>, limits: RateLimits, schedules: SchedulesService): void {
  mountEndpoint(router, endpoints.previewSchedule, limits, async ({ body }) => schedules.preview(body));
  mountEndpoint(router, endpoints.listSchedules, limits, async ({ principal, params }) => ({
    schedules: await schedules.list(principal.userId, params.id),
  }));
  // A schedule runs code as the member who set it: they must be able to run it where it runs.
  mountEndpoint(router, endpoints.createSchedule, limits, ({ principal, params, body }) => {
    requirePermission(principal, runPermissionOf(body.target));
    return schedules.create(principal.userId, params.id, body, actorOf(principal));
  });
  mountEndpoint(router, endpoints.updateSchedule, limits, async ({ principal, params, body }) => {
    const target = body.target ?? (await schedules.get(principal.userId, params.id)).target;
    requirePermission(principal, runPermissionOf(target));
    return schedules.update(principal.userId, params.id, body, actorOf(principal));
  });
  mountEndpoint(router, endpoints.deleteSchedule, limits, async ({ principal, params }) => {
    await schedules.remove(principal.userId, params.id);
    return { success: true as const };
  });
}

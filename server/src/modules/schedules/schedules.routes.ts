import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { mountEndpoint, requirePermission } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { AUDIT_ACTIONS } from '../audit/audit.service.ts';
import type { ScheduleAudit } from './schedule-audit.ts';
import { runPermissionOf, type SchedulesService } from './schedules.service.ts';

export function mountScheduleRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { schedules: SchedulesService; recordChange: ScheduleAudit },
): void {
  const { schedules, recordChange } = deps;
  mountEndpoint(router, endpoints.previewSchedule, limits, async ({ body }) => schedules.preview(body));
  mountEndpoint(router, endpoints.listSchedules, limits, async ({ principal, params }) => ({
    schedules: await schedules.list(principal.userId, params.id),
  }));
  // A schedule runs code as the member who set it: they must be able to run it where it runs.
  mountEndpoint(router, endpoints.createSchedule, limits, async ({ principal, params, body }) => {
    requirePermission(principal, runPermissionOf(body.target));
    const made = await schedules.create(principal.userId, params.id, body, actorOf(principal));
    await recordChange(principal, AUDIT_ACTIONS.scheduleCreated, made);
    return made;
  });
  mountEndpoint(router, endpoints.updateSchedule, limits, async ({ principal, params, body }) => {
    const target = body.target ?? (await schedules.get(principal.userId, params.id)).target;
    requirePermission(principal, runPermissionOf(target));
    const updated = await schedules.update(principal.userId, params.id, body, actorOf(principal));
    const changed = Object.keys(body).filter((field) => body[field as keyof typeof body] !== undefined);
    await recordChange(principal, AUDIT_ACTIONS.scheduleChanged, updated, changed);
    return updated;
  });
  mountEndpoint(router, endpoints.deleteSchedule, limits, async ({ principal, params }) => {
    const removed = await schedules.remove(principal.userId, params.id);
    await recordChange(principal, AUDIT_ACTIONS.scheduleDeleted, removed);
    return { success: true as const };
  });
}

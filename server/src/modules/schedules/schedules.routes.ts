import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { SchedulesService } from './schedules.service.ts';

export function mountScheduleRoutes(router: Router<AppState>, limits: RateLimits, schedules: SchedulesService): void {
  mountEndpoint(router, endpoints.previewSchedule, limits, async ({ body }) => schedules.preview(body));
  mountEndpoint(router, endpoints.listSchedules, limits, async ({ principal, params }) => ({
    schedules: await schedules.list(principal.userId, params.id),
  }));
  mountEndpoint(router, endpoints.createSchedule, limits, ({ principal, params, body }) =>
    schedules.create(principal.userId, params.id, body),
  );
  mountEndpoint(router, endpoints.updateSchedule, limits, ({ principal, params, body }) =>
    schedules.update(principal.userId, params.id, body),
  );
  mountEndpoint(router, endpoints.deleteSchedule, limits, async ({ principal, params }) => {
    await schedules.remove(principal.userId, params.id);
    return { success: true as const };
  });
}

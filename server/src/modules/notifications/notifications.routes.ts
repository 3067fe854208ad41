import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { NOTIFICATION_DESTINATIONS_PER_USER } from '@moonrelay/contract/notifications';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint, requireRecentProof } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { NotificationsService } from './notifications.service.ts';

export function mountNotificationRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  notifications: NotificationsService,
): void {
  mountEndpoint(router, endpoints.listNotificationDestinations, limits, async ({ principal }) => ({
    destinations: await notifications.list(principal.userId),
    limit: NOTIFICATION_DESTINATIONS_PER_USER,
  }));
  mountEndpoint(router, endpoints.createNotificationDestination, limits, ({ principal, body }) =>
    notifications.create(principal.userId, body),
  );
  mountEndpoint(router, endpoints.updateNotificationDestination, limits, async ({ principal, params, body, ctx }) => {
    // A new URL sends the game's events somewhere else, as adding a destination does: sudo mode.
    // Renaming, choosing events or resuming does not.
    if (body.url !== undefined) await requireRecentProof(principal, ctx.state.sudoMethods);
    return notifications.update(principal.userId, params.id, body);
  });
  mountEndpoint(router, endpoints.deleteNotificationDestination, limits, async ({ principal, params }) => {
    await notifications.remove(principal.userId, params.id);
    return { success: true as const };
  });
  mountEndpoint(router, endpoints.testNotificationDestination, limits, ({ principal, params }) =>
    notifications.sendTest(principal.userId, params.id),
  );
  mountEndpoint(router, endpoints.listNotificationAttempts, limits, async ({ principal, params }) => ({
    attempts: await notifications.attempts(principal.userId, params.id),
  }));
  mountEndpoint(router, endpoints.redeliverNotification, limits, ({ principal, params }) =>
    notifications.redeliver(principal.userId, params.id, params.eventId),
  );
}

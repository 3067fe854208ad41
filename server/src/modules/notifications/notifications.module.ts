import { isSimulatedServerId } from '@moonrelay/contract/simulator';
import { moduleEntry, type ModuleContext } from '../module.ts';
import { leaveOutSimulated } from '../simulator/simulated-servers.ts';
import { createDelivery } from './delivery.ts';
import { createNotificationSources } from './notification-sources.ts';
import { mountNotificationRoutes } from './notifications.routes.ts';
import { createNotificationsService } from './notifications.service.ts';
import { createNotifier } from './notifier.ts';
import { systemNetwork } from './outbound-http.ts';
import { createSignInAddresses } from './sign-in-addresses.ts';

/** How often notification events whose next try came due (retries, rate limits) are handed out. */
const NOTIFICATION_SWEEP_MS = 1_000;

/**
 * Notifications: destinations (Discord, webhooks), what raises an event, and its delivery. Events
 * are raised where they happened, once: from what this process publishes on the bus, from its game
 * servers' pings, from sign-ins, and from the modules that raise their own (moderation).
 */
export function notificationsModule(ctx: ModuleContext) {
  const { db, config, logger, platform, reactions } = ctx;
  const box = ctx.secretBox('notification-destinations');
  const allowedHosts = new Set(config.notifications.allowedHosts);
  const notificationDelivery = createDelivery({
    db,
    jobs: platform.notificationJobs ?? ctx.jobs,
    box,
    logger,
    network: ctx.overrides.notificationNetwork ?? systemNetwork,
    allowedHosts,
    publicUrl: config.publicUrl,
    retryBaseMs: config.notifications.retryBaseMs,
    leaseMs: config.notifications.leaseMs,
    onlyProcess: platform.mode === 'embedded',
  });
  const notifier = createNotifier({ db, logger, hand: notificationDelivery.hand });
  const notificationSources = createNotificationSources((userId, build) => notifier.raise(userId, build));
  const signInAddresses = createSignInAddresses({
    db,
    logger,
    raise: (userId, build) => notifier.raise(userId, build),
  });
  const notifications = createNotificationsService({
    db,
    box,
    urls: { discordOrigins: config.notifications.discordOrigins, allowedHosts },
    notifier,
  });

  // Simulated game servers raise no notifications (modules/simulator).
  reactions.on('bus:published', (event) => {
    try {
      notificationSources.observe(leaveOutSimulated(event));
    } catch {
      // Notifications never fail the code that published the event.
    }
  });
  reactions.on('game:server-pinged', (presence) => {
    if (!isSimulatedServerId(presence.serverId)) notificationSources.serverPinged(presence);
  });
  reactions.on('game:server-gone', (presence) => {
    if (!isSimulatedServerId(presence.serverId)) notificationSources.serverGone(presence);
  });
  reactions.on('auth:signed-in', ({ userId, address }) => signInAddresses.signedIn(userId, address));

  return moduleEntry({
    services: { notifier, notificationSources, notificationDelivery, notifications, signInAddresses },
    routes: (api) => mountNotificationRoutes(api, ctx.rateLimits, notifications),
    sweeps: [{ name: 'notification sweep', everyMs: NOTIFICATION_SWEEP_MS, run: () => notificationDelivery.sweep() }],
    close: async () => {
      // Bursts gathered so far are raised and stored before the queue closes.
      notificationSources.flush();
      await notifier.close();
      await notificationDelivery.close();
    },
  });
}

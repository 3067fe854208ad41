import { moduleEntry, type ModuleContext } from '../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createBansService } from './bans.service.ts';
import { systemClock } from './clock.ts';
import { createOpenCloudKeys } from './open-cloud-keys.ts';
import { mountOpenCloudRoutes } from './open-cloud.routes.ts';
import { createRestrictions, type RestrictionOutcome } from './restrictions.ts';
import { createOpenCloudClient } from './roblox-open-cloud.ts';

declare module '../../platform/reactions.ts' {
  interface ReactionEvents {
    /** Roblox applied or refused a ban or unban sent through Open Cloud (told once per update). */
    'open-cloud:outcome': { actionId: string; outcome: RestrictionOutcome };
  }
}

/**
 * Open Cloud bans (docs/decisions/038): the owner's key, the durable queue of ban updates sent to
 * Roblox, and the bans imported from Roblox. Whoever acts on an update's outcome (moderation)
 * reacts to 'open-cloud:outcome'.
 */
export function openCloudModule(ctx: ModuleContext, { audit }: { audit: AuditService }) {
  const { db, config, logger, reactions } = ctx;
  const box = ctx.secretBox('open-cloud-keys');
  const restrictions = createRestrictions({
    db,
    jobs: ctx.jobs,
    box,
    clock: systemClock,
    config: config.openCloud,
    logger,
    onOutcome: async (actionId, outcome) => {
      logger.info({ actionId, outcome: outcome.state }, 'open cloud restriction update settled');
      await reactions.tell('open-cloud:outcome', { actionId, outcome });
    },
    onlyProcess: ctx.platform.mode === 'embedded',
  });
  const openCloudKeys = createOpenCloudKeys({
    db,
    box,
    client: createOpenCloudClient({ baseUrl: config.openCloud.baseUrl, now: () => systemClock.now() }),
    clock: systemClock,
    audit,
    onSaved: (userId) => {
      restrictions
        .queueImport(userId)
        .catch((error: unknown) => logger.warn({ err: error }, 'queueing a ban import failed'));
    },
  });
  const bans = createBansService({ db });
  return moduleEntry({
    services: { restrictions, openCloudKeys, bans },
    routes: (api) => mountOpenCloudRoutes(api, ctx.rateLimits, { keys: openCloudKeys, bans, restrictions }),
    start: async () => restrictions.start(),
    // Requests to Roblox in flight are cut: their updates stay queued for the next start.
    close: () => restrictions.stop(),
  });
}

import type { ConsoleService } from '../console/console.service.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import { systemClock } from '../open-cloud/clock.ts';
import type { OpenCloudKeys } from '../open-cloud/open-cloud-keys.ts';
import { createCloudRuns } from './cloud-runs.ts';
import { mountCloudRunRoutes } from './cloud-runs.routes.ts';

/**
 * Cloud runs (docs/decisions/050): code run by Roblox through Open Cloud Luau Execution with the
 * owner's Open Cloud key. The executions module starts them (target "cloud"); this one creates the
 * tasks within Roblox's limits and follows them to their end, in this process or a worker.
 */
export function cloudRunsModule(
  ctx: ModuleContext,
  needs: { openCloudKeys: OpenCloudKeys; consoleLines: ConsoleService },
) {
  const { db, config, logger, bus } = ctx;
  const cloudRuns = createCloudRuns({
    db,
    jobs: ctx.jobs,
    // The keys are sealed by the Open Cloud module's box: the same purpose opens them.
    box: ctx.secretBox('open-cloud-keys'),
    bus,
    clock: systemClock,
    config: { ...config.openCloud, ...config.cloudRuns },
    logger,
    console: needs.consoleLines,
    introspect: (apiKey) => needs.openCloudKeys.scopesOf(apiKey),
    onlyProcess: ctx.platform.mode === 'embedded',
  });
  return moduleEntry({
    services: { cloudRuns },
    routes: (api) => mountCloudRunRoutes(api, ctx.rateLimits, cloudRuns),
    start: async () => cloudRuns.start(),
    // Reads in flight are cut (their tasks are read again after the start); a create call out ends first.
    close: () => cloudRuns.stop(),
  });
}

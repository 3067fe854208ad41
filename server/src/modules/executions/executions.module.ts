import { createSandboxPool } from '@moonrelay/sandbox/pool/sandbox-pool';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { SessionsService } from '../auth/sessions.service.ts';
import type { CloudRuns } from '../cloud-runs/cloud-runs.ts';
import type { BusWaits } from '../game/bus-waits.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { moduleEntry, type ModuleContext } from '../module.ts';
import { mountExecutionRoutes } from './executions.routes.ts';
import { createExecutionsService } from './executions.service.ts';
import { createRunRetention, RUN_RETENTION_SWEEP_MS } from './run-retention.ts';
import { mountRunRoutes } from './runs.routes.ts';
import { createRunsService } from './runs.service.ts';
import { queuedSandboxRunner, registerSandboxJob, sandboxRunner } from './sandbox-runner.ts';

/**
 * Running code: in the sandbox (here, or in a worker through the job queue) or on a game server
 * as a command, and the history of runs.
 */
export function executionsModule(
  ctx: ModuleContext,
  needs: {
    gameLink: GameLinkService;
    waits: BusWaits;
    luaTools: HttpLuaTools;
    cloudRuns: CloudRuns;
  },
) {
  const { db, bus, config, platform, jobs, reactions } = ctx;
  const { gameLink, waits } = needs;
  // Its threads start on first use, so a process that never runs Lua holds none.
  const sandboxPool = createSandboxPool({ size: config.sandbox.threads, maxQueue: config.sandbox.maxQueue });
  registerSandboxJob(jobs, sandboxPool);
  const sandbox = platform.sandboxInWorkers ? queuedSandboxRunner(jobs) : sandboxRunner(sandboxPool);
  const executions = createExecutionsService({
    db,
    bus,
    gameWaitMs: config.gameExecutionWaitMs,
    cloud: needs.cloudRuns,
    sandbox,
    syntax: needs.luaTools,
    game: {
      executionServer: gameLink.executionServer,
      queueExecution: async (userId, serverId, code, executionId) => {
        const sent = await gameLink.send(
          userId,
          { type: 'execute', data: { code }, serverId },
          'execution',
          executionId,
        );
        return sent.id;
      },
      waitForResult: (commandId, timeoutMs) => waits.commandFinished(commandId, timeoutMs),
      ping: async (userId, serverId, playerData) => (await gameLink.ping(userId, { serverId, playerData })).commands,
    },
  });
  // A run on a game is a command: its result completes the run.
  reactions.on('commands:finished', (finished) => executions.completeGameRuns(finished));
  const runs = createRunsService({ db, cloud: needs.cloudRuns });
  const runRetention = createRunRetention({ db, logger: ctx.logger });
  return moduleEntry({
    services: { executions, runs, runRetention, sandboxPool, sandbox },
    // The routes name the caller's key or session (a worker process, which mounts none, builds neither).
    routes: (api, later: { apiKeys: ApiKeysService; sessions: SessionsService }) => {
      mountExecutionRoutes(api, ctx.rateLimits, {
        idempotency: ctx.idempotency,
        executions,
        apiKeys: later.apiKeys,
        sessions: later.sessions,
        db,
      });
      mountRunRoutes(api, ctx.rateLimits, runs, needs.cloudRuns);
    },
    sweeps: [{ name: 'run retention sweep', everyMs: RUN_RETENTION_SWEEP_MS, run: () => runRetention.sweep() }],
    release: () => sandboxPool.close(),
  });
}

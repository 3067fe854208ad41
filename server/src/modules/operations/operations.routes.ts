import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { APP_VERSION } from '@moonrelay/contract/constants';
import { endpoints } from '@moonrelay/contract/endpoints';
import type { HealthReady } from '@moonrelay/contract/operations';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';

const startedAt = Date.now();

async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

const uptimeSeconds = () => Math.round((Date.now() - startedAt) / 1000);

/** How long a readiness probe waits for the queue's store before calling the workers' state unknown. */
const WORKER_CHECK_TIMEOUT_MS = 1_000;

/** The job queue's workers, asked of Redis within a second (a probe must never hang on a Redis that is away). */
async function workerState(platform: Platform): Promise<HealthReady['workers']> {
  try {
    const count = await Promise.race([
      platform.jobs.workerCount(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), WORKER_CHECK_TIMEOUT_MS).unref(),
      ),
    ]);
    if (count === 'in-process') return { status: 'in-process', count: null };
    return { status: count > 0 ? 'ok' : 'none', count };
  } catch {
    return { status: 'error', count: null };
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
};

/**
 * Health for load balancers, orchestrators and people, never rate-limited (probes come every few
 * seconds from one address): GET /api/health (200 while the database answers, 503 when it does
 * not; Redis reported beside it), GET /api/health/live (the process answers) and
 * GET /api/health/ready (503 while the database or Redis is away; the workers reported beside) and Prometheus metrics (GET /metrics, only with the
 * METRICS_TOKEN as a Bearer token; without the setting the metrics are not served at all).
 */
export function mountOperationsRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { db: Db; platform: Platform; metrics: Metrics; metricsToken: string | undefined },
): void {
  const dependencies = async () => {
    const [database, redis] = await Promise.all([databaseAnswers(deps.db), deps.platform.redisStatus()]);
    return {
      status: database && redis !== 'error' ? ('ok' as const) : ('degraded' as const),
      version: APP_VERSION,
      mode: deps.platform.mode,
      database: database ? ('ok' as const) : ('error' as const),
      redis,
      uptimeSeconds: uptimeSeconds(),
    };
  };

  mountEndpoint(router, endpoints.health, limits, async ({ ctx }) => {
    const answer = await dependencies();
    // The database is what every request needs: without it this instance should leave the rotation.
    if (answer.database === 'error') ctx.status = 503;
    return answer;
  });

  mountEndpoint(router, endpoints.healthLive, limits, async () => ({
    status: 'ok' as const,
    version: APP_VERSION,
    uptimeSeconds: uptimeSeconds(),
  }));

  mountEndpoint(router, endpoints.healthReady, limits, async ({ ctx }) => {
    const [answer, workers] = await Promise.all([dependencies(), workerState(deps.platform)]);
    if (answer.status !== 'ok') ctx.status = 503;
    return { ...answer, workers };
  });

  const metricsRoute: Middleware<AppState> = async (ctx) => {
    const token = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!deps.metricsToken || !token || !sameToken(token, deps.metricsToken)) {
      ctx.status = deps.metricsToken ? 401 : 404;
      ctx.body = { error: deps.metricsToken ? 'Authentication failed' : 'Not found' };
      return;
    }
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = await deps.metrics.render();
  };
  router.get('/metrics', metricsRoute);
}

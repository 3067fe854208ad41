import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { APP_VERSION } from '@moonrelay/contract/constants';
import { endpoints } from '@moonrelay/contract/endpoints';
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

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
};

/**
 * Health for load balancers and people (GET /api/health: 200 while the database answers, 503 when
 * it does not; Redis reported beside it) and Prometheus metrics (GET /metrics, only with the
 * METRICS_TOKEN as a Bearer token; without the setting the metrics are not served at all).
 */
export function mountOperationsRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { db: Db; platform: Platform; metrics: Metrics; metricsToken: string | undefined },
): void {
  mountEndpoint(router, endpoints.health, limits, async ({ ctx }) => {
    const [database, redis] = await Promise.all([databaseAnswers(deps.db), deps.platform.redisStatus()]);
    const healthy = database && redis !== 'error';
    const answer = {
      status: healthy ? ('ok' as const) : ('degraded' as const),
      version: APP_VERSION,
      mode: deps.platform.mode,
      database: database ? ('ok' as const) : ('error' as const),
      redis,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    };
    // The database is what every request needs: without it this instance should leave the rotation.
    if (!database) ctx.status = 503;
    return answer;
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

import type { Middleware } from 'koa';
import type { AppState, Principal } from './context.ts';

/** What the middleware reports each request to (see modules/analytics/request-metrics.ts). */
export interface RequestRecorder {
  record(userId: string, endpoint: string, at: number, durationMs: number, isError: boolean): void;
}

/** Counts one answered request of a known caller under its route ("POST /api/game/ping"); anonymous ones are not counted. */
export function recordRequest(
  recorder: RequestRecorder,
  principal: Principal | undefined,
  route: string,
  startedAt: number,
  status: number,
): void {
  if (!principal) return;
  recorder.record(principal.userId, route, Date.now(), performance.now() - startedAt, status >= 400);
}

/**
 * Counts every answered API request of a known caller under its route pattern ("GET
 * /api/scripts/:id", never the raw URL, so ids cannot grow the key space). Requests no route
 * matched, and anonymous ones, are not counted. The work is an in-memory increment; the database
 * sees the counts later, in bulk.
 */
export function requestMetrics(recorder: RequestRecorder): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    // Set by @koa/router to the matched layer's path.
    const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
    if (typeof route !== 'string') return;
    recordRequest(recorder, ctx.state.principal, `${ctx.method} ${route}`, started, ctx.status);
  };
}

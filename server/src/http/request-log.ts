import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './context.ts';

/** A caller-supplied id is kept only if it is short and plain, so it cannot forge log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the caller's X-Request-Id when it is safe to echo, else a new one. */
export const requestIdFor = (incoming: string): string =>
  SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();

/**
 * The one log line per request, at error level for a 5xx. `requestId` is given where `log` is not
 * already a child logger bound to it (the fast routes); the line reads the same either way.
 */
export function logRequest(
  log: Logger,
  line: { requestId?: string; method: string; path: string; status: number },
  startedAt: number,
): void {
  const level = line.status >= 500 ? 'error' : 'info';
  if (log.isLevelEnabled(level)) log[level]({ ...line, ms: Math.round(performance.now() - startedAt) }, 'request');
}

/** Gives every request an id (echoed as X-Request-Id) and a child logger, and logs one line per request. */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const requestId = requestIdFor(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      logRequest(ctx.state.log, { method: ctx.method, path: ctx.path, status: ctx.status }, started);
    }
  };
}

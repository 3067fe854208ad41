import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './context.ts';

/** A caller-supplied id is kept only if it is short and plain, so it cannot forge log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (echoed as X-Request-Id) and a child logger, and logs one line per request. */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const level = ctx.status >= 500 ? 'error' : 'info';
      ctx.state.log[level](
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  };
}

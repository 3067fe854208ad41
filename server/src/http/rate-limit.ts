import type { Middleware } from 'koa';
import type { RateLimitPolicy } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import type { RateLimitBackend, WindowCounter } from '../platform/rate-limits.ts';
import { AppError } from './app-error.ts';
import type { AppState } from './context.ts';

/**
 * Per-principal budgets (spec section 9): 100 requests a minute for most calls, 50 for script
 * execution, each counted for one session, one API key, or one IP address when anonymous.
 * Every answer carries RateLimit-* headers; a refusal is 429 with Retry-After.
 */
export type RateLimits = Record<RateLimitPolicy, WindowCounter>;

export function createRateLimits(
  backend: RateLimitBackend,
  perMinute: { generalPerMinute: number; executionPerMinute: number },
): RateLimits {
  return {
    general: backend.counter('rl:general', perMinute.generalPerMinute, 60),
    execution: backend.counter('rl:execution', perMinute.executionPerMinute, 60),
  };
}

function principalKey(state: AppState, ip: string): string {
  const principal = state.principal;
  if (principal?.kind === 'session') return `session:${principal.sessionId}`;
  if (principal?.kind === 'api-key') return `key:${principal.apiKeyId}`;
  return `ip:${ip}`;
}

export function rateLimit(counter: WindowCounter): Middleware<AppState> {
  return async (ctx, next) => {
    const state = await counter.hit(principalKey(ctx.state, ctx.ip));
    const resetSeconds = Math.max(1, Math.ceil(state.resetMs / 1000));
    ctx.set({
      'RateLimit-Limit': String(state.limit),
      'RateLimit-Remaining': String(state.remaining),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': `${state.limit};w=60`,
    });
    if (!state.allowed) {
      throw new AppError(429, ERRORS.tooManyRequests, { headers: { 'Retry-After': String(resetSeconds) } });
    }
    await next();
  };
}

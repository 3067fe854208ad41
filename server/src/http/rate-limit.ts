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
export type RateLimits = Record<Exclude<RateLimitPolicy, 'none'>, WindowCounter>;

export function createRateLimits(
  backend: RateLimitBackend,
  perMinute: { generalPerMinute: number; executionPerMinute: number; gamePingPerMinute: number },
): RateLimits {
  return {
    general: backend.counter('rl:general', perMinute.generalPerMinute, 60),
    execution: backend.counter('rl:execution', perMinute.executionPerMinute, 60),
    // Keyed by API key and game server (see game.routes.ts), never by the user's session.
    game: backend.counter('rl:game', perMinute.gamePingPerMinute, 60),
  };
}

function principalKey(state: AppState, ip: string): string {
  const principal = state.principal;
  if (principal?.kind === 'session') return `session:${principal.sessionId}`;
  if (principal?.kind === 'api-key') return `key:${principal.apiKeyId}`;
  return ipKey(ip);
}

/** Where an answer's headers are set: a Koa context, or the answer of a fast route (fast-routes.ts). */
export interface AnswerHeaders {
  set(fields: Record<string, string>): void;
}

/**
 * Spends one request of `counter` for the key (by default the caller); 429 when the budget is used up.
 * The RateLimit-* headers go on the answer either way, a refusal included.
 */
export async function spend(answer: AnswerHeaders, counter: WindowCounter, key: string): Promise<void> {
  const state = await counter.hit(key);
  const resetSeconds = Math.max(1, Math.ceil(state.resetMs / 1000));
  answer.set({
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(resetSeconds),
    'RateLimit-Policy': `${state.limit};w=60`,
  });
  if (!state.allowed) {
    throw new AppError(429, ERRORS.tooManyRequests, { headers: { 'Retry-After': String(resetSeconds) } });
  }
}

export function rateLimit(counter: WindowCounter): Middleware<AppState> {
  return async (ctx, next) => {
    await spend(ctx, counter, principalKey(ctx.state, ctx.ip));
    await next();
  };
}

/** The anonymous caller's key: their IP address. */
export const ipKey = (ip: string) => `ip:${ip}`;

import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { z } from 'zod';
import { DEFAULT_BODY_LIMIT_BYTES, type Endpoint } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import type { AppState, AppContext, Principal } from './context.ts';
import { AppError } from './app-error.ts';
import { rateLimit, type RateLimits } from './rate-limit.ts';
import { parseOrThrow } from './validation.ts';

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface EndpointInput<E extends Endpoint> {
  body: Infer<E['body']>;
  params: Infer<E['params']>;
  query: Infer<E['query']>;
  /** Present whenever the endpoint requires authentication. */
  principal: E['auth'] extends 'none' ? Principal | undefined : Principal;
  ctx: AppContext;
}

export type EndpointHandler<E extends Endpoint> = (input: EndpointInput<E>) => Promise<z.input<E['response']>>;

function authorize(endpoint: Endpoint): Middleware<AppState> {
  return async (ctx, next) => {
    if (endpoint.auth === 'none') return next();
    const { principal, rejectedCredential } = ctx.state;
    if (!principal) {
      const message = rejectedCredential === 'api-key' ? ERRORS.invalidApiKey : ERRORS.authenticationFailed;
      throw new AppError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    if ((endpoint.auth === 'session' || endpoint.auth === 'admin') && principal.kind !== 'session') {
      throw new AppError(403, ERRORS.sessionRequired);
    }
    if (endpoint.auth === 'admin' && !(principal.kind === 'session' && principal.isAdmin)) {
      throw new AppError(403, ERRORS.adminsOnly);
    }
    await next();
  };
}

/** Refuses bodies that are not JSON instead of silently reading them as empty. */
const requireJson: Middleware = async (ctx, next) => {
  if (ctx.request.length && !ctx.is('application/json')) throw new AppError(415, ERRORS.bodyNotJson);
  await next();
};

const parsers = new Map<number, Middleware>();
function jsonBody(limit: number): Middleware {
  const cached = parsers.get(limit);
  if (cached) return cached;
  // koa-body is typed against an older @types/koa; the middleware contract is the same.
  const parser = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
  }) as unknown as Middleware;
  parsers.set(limit, parser);
  return parser;
}

/**
 * Mounts one contract endpoint: rate limit, then authorization, then the JSON body (within its
 * size limit), then validation of params, query and body. The handler's result is passed through
 * the response schema, so nothing outside the contract (a password hash, say) can leak into an answer.
 *
 * Endpoints whose caller proves itself with a key inside the request ('game-key': the game's ping
 * and loader) bring their own `gate`, run after the body is read, which authenticates and rate limits.
 */
export function mountEndpoint<E extends Endpoint>(
  router: Router<AppState>,
  endpoint: E,
  limits: RateLimits,
  handler: EndpointHandler<E>,
  gate?: Middleware<AppState>,
): void {
  const stack: Middleware<AppState>[] = [];
  if (endpoint.auth === 'game-key') {
    if (!gate) throw new Error(`${endpoint.path} needs a gate that checks its key`);
  } else {
    stack.push(rateLimit(limits[endpoint.rateLimit]), authorize(endpoint));
  }
  if (endpoint.body) stack.push(requireJson, jsonBody(endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES));
  if (gate) stack.push(gate);
  stack.push(async (ctx) => {
    const params = endpoint.params ? parseOrThrow(endpoint.params, ctx.params) : undefined;
    const query = endpoint.query ? parseOrThrow(endpoint.query, ctx.query) : undefined;
    const body = endpoint.body
      ? parseOrThrow(endpoint.body, (ctx.request as { body?: unknown }).body ?? {})
      : undefined;
    const result = await handler({
      body: body as Infer<E['body']>,
      params: params as Infer<E['params']>,
      query: query as Infer<E['query']>,
      principal: ctx.state.principal as EndpointInput<E>['principal'],
      ctx,
    });
    if (endpoint.responseType === 'text/plain') ctx.type = 'text/plain; charset=utf-8';
    ctx.body = endpoint.response.parse(result);
  });
  router[endpoint.method](endpoint.path, ...(stack as Middleware[]));
}

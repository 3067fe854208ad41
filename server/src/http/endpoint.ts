import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { DEFAULT_BODY_LIMIT_BYTES, type Endpoint } from '@moonrelay/contract/endpoints';
import { ERRORS, SESSIONS, TWO_FACTOR } from '@moonrelay/contract/messages';
import { SUDO_REQUIRED_CODE, type SudoMethod } from '@moonrelay/contract/sessions';
import { isTeamPermission, TEAM_ERRORS, TEAM_HEADER, type TeamPermission } from '@moonrelay/contract/teams';
import { holds, missingPermission } from '../security/team-permissions.ts';
import type { AppState, AppContext, Principal } from './context.ts';
import { AppError } from './app-error.ts';
import { isPlainJsonRequest, jsonBody, readPlainJson } from './json-body.ts';
import type { FastRoute } from './fast-routes.ts';
import { requireEndpointScope } from './key-scopes.ts';
import { rateLimit, type AnswerHeaders, type RateLimits } from './rate-limit.ts';
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
    const { principal, rejectedCredential, keyRefusal } = ctx.state;
    if (!principal) {
      if (keyRefusal?.status === 403) throw new AppError(403, keyRefusal.message);
      const message =
        rejectedCredential === 'api-key' ? (keyRefusal?.message ?? ERRORS.invalidApiKey) : ERRORS.authenticationFailed;
      throw new AppError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    if ((endpoint.auth === 'session' || endpoint.auth === 'admin') && principal.kind !== 'session') {
      throw new AppError(403, ERRORS.sessionRequired);
    }
    if (endpoint.auth === 'admin' && !(principal.kind === 'session' && principal.isAdmin)) {
      throw new AppError(403, ERRORS.adminsOnly);
    }
    if (endpoint.auth === 'admin' && principal.kind === 'session' && principal.adminNeedsTwoFactor) {
      throw new AppError(403, TWO_FACTOR.adminSetupRequired);
    }
    requireEndpointScope(endpoint, principal);
    await actOnNamedTeam(endpoint, ctx);
    requireEndpointPermission(endpoint, ctx.state.principal!);
    if (endpoint.sudo) await requireRecentProof(principal, ctx.state.sudoMethods);
    await next();
  };
}

/** Endpoints that act on a team's data: those that need a team permission, or membership. */
const actsOnTeam = (endpoint: Endpoint): boolean =>
  endpoint.permission === 'member' || isTeamPermission(endpoint.permission);

/**
 * The team a request acts on: the one its path names (`:teamId`), else the `Moonrelay-Team`
 * header, else the caller's own account. A signed-in member then acts on the team's account with
 * what they hold in it, read afresh on every request; a key acts on its own team alone.
 */
async function actOnNamedTeam(endpoint: Endpoint, ctx: AppContext): Promise<void> {
  if (!actsOnTeam(endpoint)) return;
  const principal = ctx.state.principal!;
  const fromPath = (ctx.params as Record<string, string> | undefined)?.teamId;
  // A path's parameters are judged before they name a team: an odd one is the caller's mistake (400).
  if (fromPath !== undefined && endpoint.params) parseOrThrow(endpoint.params, ctx.params);
  const named = fromPath ?? (ctx.get(TEAM_HEADER) || undefined);
  if (named === undefined || named === principal.userId) return;
  if (principal.kind === 'api-key') throw new AppError(403, TEAM_ERRORS.headerInvalid);
  const held = (await ctx.state.teamAccess?.(named)) ?? null;
  // A team one does not belong to answers as if it did not exist.
  if (!held) throw new AppError(fromPath ? 404 : 403, fromPath ? TEAM_ERRORS.notFound : TEAM_ERRORS.headerInvalid);
  ctx.state.principal = { ...principal, userId: named, actorId: principal.userId, held };
}

/**
 * The one decision of docs/decisions/049, for HTTP: the permission the endpoint declares, held on
 * the team the request acts on (a key holds what its maker holds).
 */
export function requireEndpointPermission(endpoint: Endpoint, principal: Principal): void {
  if (isTeamPermission(endpoint.permission)) requirePermission(principal, endpoint.permission);
}

/** Throws 403 naming the permission, unless the principal holds it where it acts. */
export function requirePermission(principal: Principal, permission: TeamPermission): void {
  if (!holds(principal.held ?? 'all', permission)) throw new AppError(403, missingPermission(permission));
}

/**
 * Sudo mode: a change that hands over or widens access to the account needs the session to have
 * proved itself (signed in, or the password, a code or a passkey) in the last 10 minutes. The
 * refusal carries a code and the ways to prove it, so a client can ask once and retry.
 */
export async function requireRecentProof(
  principal: Principal,
  methodsOf: (() => Promise<SudoMethod[]>) | undefined,
): Promise<void> {
  if (principal.kind !== 'session') throw new AppError(403, ERRORS.sessionRequired);
  if ((principal.sudoUntilMs ?? 0) > Date.now()) return;
  const methods = (await methodsOf?.()) ?? [];
  throw new AppError(403, methods.includes('sign-in') ? SESSIONS.sudoRequiredSignIn : SESSIONS.sudoRequired, {
    fields: { code: SUDO_REQUIRED_CODE, methods },
  });
}

/**
 * The caller as the gate of a 'game-key' endpoint sees it: where the answer's headers go (RateLimit-*),
 * its address (read only when needed), and the principal, which the gate sets once the key is
 * accepted: from then on the request is the key owner's (the handler's principal, and whose request
 * metrics count it, a refusal of its budget included).
 */
export interface KeyCaller extends AnswerHeaders {
  ip(): string;
  principal?: Principal;
}

/** What the gate gets: the body and query that hold the key, and the caller. */
export interface KeyedRequest {
  body: unknown;
  query: Record<string, unknown>;
  caller: KeyCaller;
}

/** Checks the key the caller sends in its request and spends the budget it is due; throws the refusal. */
export type KeyGate = (request: KeyedRequest) => Promise<void>;

/**
 * Told of a request whose caller passed the gate but whose input was refused (400): the game link
 * records a game server's refused ping so its owner can see why (ping-refusals.ts).
 */
export type RefusalListener = (request: { principal: Principal; body: unknown }, error: AppError) => void;

/** Runs `work`; a 400 refusal of an authenticated caller is told to `listener` before it is thrown on. */
async function tellingRefusals<T>(
  listener: RefusalListener | undefined,
  request: { principal: Principal | undefined; body: unknown },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (listener && request.principal && error instanceof AppError && error.status === 400) {
      listener({ principal: request.principal, body: request.body }, error);
    }
    throw error;
  }
}

/** A handler that needs no Koa context, so that the fast routes can serve its endpoint too. */
export type ContextFreeHandler<E extends Endpoint> = (
  input: Omit<EndpointInput<E>, 'ctx'>,
) => Promise<z.input<E['response']>>;

interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  principal: Principal | undefined;
}

/** The last step of every route, Koa or fast: validation, the handler, and its answer through the response schema. */
async function answer<E extends Endpoint>(
  endpoint: E,
  raw: RawInput,
  handler: ContextFreeHandler<E>,
): Promise<unknown> {
  const params = endpoint.params ? parseOrThrow(endpoint.params, raw.params) : undefined;
  const query = endpoint.query ? parseOrThrow(endpoint.query, raw.query) : undefined;
  const body = endpoint.body ? parseOrThrow(endpoint.body, raw.body ?? {}) : undefined;
  const result = await handler({
    body: body as Infer<E['body']>,
    params: params as Infer<E['params']>,
    query: query as Infer<E['query']>,
    principal: raw.principal as EndpointInput<E>['principal'],
  });
  return endpoint.response.parse(result);
}

/** A 'game-key' endpoint's scope check, once its gate has named the caller. */
function scopeStep(endpoint: Endpoint): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.state.principal) {
      requireEndpointScope(endpoint, ctx.state.principal);
      requireEndpointPermission(endpoint, ctx.state.principal);
    }
    await next();
  };
}

function gateStep(gate: KeyGate): Middleware<AppState> {
  return async (ctx, next) => {
    const caller: KeyCaller = {
      set: (fields) => ctx.set(fields),
      ip: () => ctx.ip,
      get principal() {
        return ctx.state.principal;
      },
      set principal(principal) {
        ctx.state.principal = principal;
      },
    };
    await gate({ body: (ctx.request as { body?: unknown }).body, query: ctx.query, caller });
    await next();
  };
}

/**
 * Mounts one contract endpoint: rate limit, then authorization, then the JSON body (within its size
 * limit), then validation of params, query and body. The handler's result is passed through the
 * response schema, so nothing outside the contract (a password hash, say) can leak into an answer.
 *
 * Endpoints whose caller proves itself with a key inside the request ('game-key': the game's ping
 * and loader) bring their own `gate`, run after the body is read, which authenticates and rate limits.
 * So do endpoints that take a key in the body besides the Authorization header (`keyInBody`): their
 * gate may name the caller from the body, and the rate limit and authorization follow it.
 */
export function mountEndpoint<E extends Endpoint>(
  router: Router<AppState>,
  endpoint: E,
  limits: RateLimits,
  handler: EndpointHandler<E>,
  gate?: KeyGate,
  onRefused?: RefusalListener,
): void {
  const stack: Middleware<AppState>[] = [];
  // Health checks ('none') are never rate-limited: probes come every few seconds from one address.
  const checks = [
    ...(endpoint.rateLimit === 'none' ? [] : [rateLimit(limits[endpoint.rateLimit])]),
    authorize(endpoint),
  ];
  if (endpoint.auth === 'game-key' || endpoint.keyInBody) {
    if (!gate) throw new Error(`${endpoint.path} needs a gate that checks its key`);
    if (endpoint.keyInBody && !endpoint.body)
      throw new Error(`${endpoint.path} takes a key in a body it does not have`);
  } else {
    stack.push(...checks);
  }
  if (endpoint.body) stack.push(jsonBody(endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES));
  if (gate) stack.push(gateStep(gate));
  if (endpoint.keyInBody) stack.push(...checks);
  else if (endpoint.auth === 'game-key') stack.push(scopeStep(endpoint));
  stack.push(async (ctx) => {
    const raw = {
      params: ctx.params,
      query: ctx.query,
      body: (ctx.request as { body?: unknown }).body,
      principal: ctx.state.principal,
    };
    const result = await tellingRefusals(onRefused, raw, () =>
      answer(endpoint, raw, (input) => handler({ ...input, ctx })),
    );
    if (endpoint.responseType === 'text/plain') ctx.type = 'text/plain; charset=utf-8';
    ctx.body = result;
  });
  router[endpoint.method](endpoint.path, ...(stack as Middleware[]));
}

/**
 * The same endpoint as a fast route (fast-routes.ts): the same body reader, gate, validation, handler
 * and response schema as mountEndpoint, without the Koa stack. It takes plain JSON requests without
 * an Authorization header; any other request of the route goes the Koa way, where `authenticate`
 * reads that header (so an answer refused before the key is checked counts for that caller).
 * Only 'game-key' endpoints with a JSON body and neither params nor query qualify.
 */
export function fastEndpoint<E extends Endpoint>(
  endpoint: E,
  handler: ContextFreeHandler<E>,
  gate: KeyGate,
  onRefused?: RefusalListener,
): FastRoute {
  if (endpoint.auth !== 'game-key' || !endpoint.body || endpoint.params || endpoint.query || endpoint.responseType) {
    throw new Error(`${endpoint.method.toUpperCase()} ${endpoint.path} cannot be a fast route`);
  }
  const limit = endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  return {
    method: endpoint.method.toUpperCase(),
    path: endpoint.path,
    accepts: (req) => req.headers.authorization === undefined && isPlainJsonRequest(req),
    async answer(exchange) {
      const body = await readPlainJson(exchange.req, limit);
      // The fast routes take the path alone, so the query is always empty.
      await gate({ body, query: {}, caller: exchange });
      if (exchange.principal) {
        requireEndpointScope(endpoint, exchange.principal);
        requireEndpointPermission(endpoint, exchange.principal);
      }
      const raw = { body, principal: exchange.principal };
      return tellingRefusals(onRefused, raw, () => answer(endpoint, raw, handler));
    },
  };
}

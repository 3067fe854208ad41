import type { Middleware } from 'koa';
import { endpoints, type Endpoint, type EndpointName } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { AUDIT_ACTIONS, AUDIT_CODE_EXCERPT, type AuditService } from '../audit/audit.service.ts';

/**
 * The name an audit entry gives the key's owner (their username), or null for an account that is
 * gone. Passed in rather than read from the users module, which is built after this one and takes
 * its service: all the audit needs of an account is this one name.
 */
export type ActorName = (userId: string) => Promise<string | null>;

const byRoute = new Map(
  Object.entries(endpoints as Record<EndpointName, Endpoint>).map(([name, endpoint]) => [
    `${endpoint.method.toUpperCase()} ${endpoint.path}`,
    { name, endpoint },
  ]),
);

/**
 * Whether a call made with a key changed something of the user's: a write to a route that takes
 * keys, other than the game link's own traffic ('game-key': pings and the loader), the calls that
 * touch nothing of the user's (scope 'any': syntax check, format, catalogue), and the game's fetch
 * of a script by name through POST /api/scripts/execute, which only reads.
 */
function isChange(name: string, endpoint: Endpoint, body: unknown): boolean {
  if (endpoint.method === 'get' || endpoint.auth !== 'session-or-key' || endpoint.keyScopes === 'any') return false;
  const fields = (body ?? {}) as Record<string, unknown>;
  return !(name === 'executeCode' && fields.script !== undefined);
}

/** What the audit keeps of the call: the path's ids, and an excerpt of code that ran. */
function callDetails(params: Record<string, string>, body: unknown): Record<string, unknown> {
  const fields = (body ?? {}) as Record<string, unknown>;
  const data = fields.data as Record<string, unknown> | undefined;
  const code = [fields.code, fields.loadstring, data?.code].find((value) => typeof value === 'string') as
    string | undefined;
  return {
    ...(Object.keys(params).length ? { params } : {}),
    ...(typeof fields.type === 'string' ? { type: fields.type } : {}),
    ...(code !== undefined ? { code: code.slice(0, AUDIT_CODE_EXCERPT) } : {}),
  };
}

/**
 * Every change made with an API key (the personal key or a scoped one) is audited with the key's
 * name, so an owner can see what a leaked key did. One place for every route: it runs around the
 * router and looks at the answered call, so a route added later is covered without doing anything.
 */
export function auditKeyChanges(deps: { audit: AuditService; actorName: ActorName }): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    const { principal } = ctx.state;
    if (principal?.kind !== 'api-key' || ctx.status >= 300) return;
    const matched = (ctx as { _matchedRoute?: string })._matchedRoute;
    const route = matched && byRoute.get(`${ctx.method} ${matched}`);
    const body = (ctx.request as { body?: unknown }).body;
    if (!route || !isChange(route.name, route.endpoint, body)) return;
    await deps.audit.record({
      actor: { id: actorOf(principal), name: await deps.actorName(actorOf(principal)) },
      action: AUDIT_ACTIONS.keyChange,
      targetType: 'user',
      targetId: principal.userId,
      teamId: principal.userId,
      details: {
        keyName: principal.keyName,
        keyId: principal.apiKeyId,
        call: `${ctx.method} ${matched}`,
        endpoint: route.name,
        ...callDetails((ctx.params ?? {}) as Record<string, string>, body),
      },
    });
  };
}

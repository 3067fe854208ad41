import { API_KEY_ERRORS, type ApiKeyScope } from '@moonrelay/contract/api-keys';
import type { Endpoint } from '@moonrelay/contract/endpoints';
import { AppError } from './app-error.ts';
import type { Principal } from './context.ts';

/**
 * Scopes of API keys (docs/decisions/029). Every endpoint that takes a key names the scopes that
 * let a key call it (contract/src/endpoints.ts, `keyScopes`); the check here runs for every such
 * route, Koa or fast, before its handler. A session holds every scope, as does the personal key.
 * Where one route serves two scopes differently (the game's script list and fetch-by-name beside
 * reading all scripts or running code), its handler narrows with `hasScope` / `requireScope`.
 */

export const hasScope = (principal: Principal, scope: ApiKeyScope): boolean =>
  principal.kind !== 'api-key' || principal.scopes.includes(scope);

const missing = (scopes: readonly ApiKeyScope[]) =>
  new AppError(403, API_KEY_ERRORS.scopeMissingPrefix + scopes.join(' or '));

export function requireScope(principal: Principal, scope: ApiKeyScope): void {
  if (!hasScope(principal, scope)) throw missing([scope]);
}

/** Throws 403 naming the scope a key lacks for this endpoint. */
export function requireEndpointScope(endpoint: Endpoint, principal: Principal): void {
  if (principal.kind !== 'api-key') return;
  const needed = endpoint.keyScopes;
  // Endpoints that take no keys are refused to keys before this (sessionRequired).
  if (needed === undefined || needed === 'any') return;
  if (!needed.some((scope) => principal.scopes.includes(scope))) throw missing(needed);
}

import type Router from '@koa/router';
import { endpoints } from '@moonrelay/contract/endpoints';
import { actorOf, type AppState } from '../../http/context.ts';
import { mountEndpoint } from '../../http/endpoint.ts';
import type { RateLimits } from '../../http/rate-limit.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import { SCOPED_KEYS_PER_USER } from '@moonrelay/contract/api-keys';
import type { ApiKeysService } from './api-keys.service.ts';
import type { ActorName } from './key-changes.ts';

/** Settings' API keys: a signed-in session lists, creates and revokes the user's scoped keys (never a key). */
export function mountApiKeyRoutes(
  router: Router<AppState>,
  limits: RateLimits,
  deps: { apiKeys: ApiKeysService; audit: AuditService; actorName: ActorName },
): void {
  const { apiKeys, audit, actorName } = deps;
  const actor = async (userId: string) => ({ id: userId, name: await actorName(userId) });

  mountEndpoint(router, endpoints.listApiKeys, limits, async ({ principal }) => ({
    items: await apiKeys.list(principal.userId),
    limit: SCOPED_KEYS_PER_USER,
  }));
  mountEndpoint(router, endpoints.createApiKey, limits, async ({ principal, body }) => {
    const created = await apiKeys.create(principal.userId, body, actorOf(principal));
    await audit.record({
      actor: await actor(actorOf(principal)),
      action: AUDIT_ACTIONS.accountApiKeyCreated,
      targetType: 'user',
      targetId: principal.userId,
      teamId: principal.userId,
      details: {
        keyId: created.id,
        keyName: created.name,
        scopes: created.scopes,
        expiresAt: created.expiresAt,
        allowedIps: created.allowedIps,
      },
    });
    return created;
  });
  mountEndpoint(router, endpoints.revokeApiKey, limits, async ({ principal, params }) => {
    const revoked = await apiKeys.revoke(principal.userId, params.keyId);
    await audit.record({
      actor: await actor(actorOf(principal)),
      action: AUDIT_ACTIONS.accountApiKeyRevoked,
      targetType: 'user',
      targetId: principal.userId,
      teamId: principal.userId,
      details: { keyId: revoked.id, keyName: revoked.name },
    });
    return { success: true as const, message: 'API key revoked' };
  });
}

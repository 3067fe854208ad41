import { OPEN_CLOUD_ERRORS, type OpenCloudKey, type SaveOpenCloudKeyRequest } from '@moonrelay/contract/open-cloud';
import { CLOUD_RUN_ERRORS, LUAU_EXECUTION_SCOPE, type SaveCloudPlaceRequest } from '@moonrelay/contract/cloud-runs';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { AUDIT_ACTIONS, type createAuditService } from '../audit/audit.service.ts';
import { usersRepo } from '../users/users.repo.ts';
import type { Clock } from './clock.ts';
import { keysRepo, type KeyRow } from './open-cloud.repo.ts';
import { cloudUnavailable, CloudUnreachable, robloxErrorText, type OpenCloudClient } from './roblox-open-cloud.ts';

/** The key's first and last four characters: enough to tell two keys apart, too little to use. */
export const maskKey = (apiKey: string) => `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;

/** The key's scopes as stored ("scope:operation"), or null when Roblox's introspection did not say. */
export const scopesOf = (row: Pick<KeyRow, 'scopes'>): string[] | null => {
  if (!row.scopes) return null;
  try {
    const scopes: unknown = JSON.parse(row.scopes);
    return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : null;
  } catch {
    return null;
  }
};

const BAN_SCOPE = 'universe.user-restriction';
/** Whether the scopes (null: unknown) may carry bans: unknown ones are tried, as before introspection. */
export const mayBan = (scopes: string[] | null) => scopes === null || scopes.some((s) => s.startsWith(`${BAN_SCOPE}:`));
const mayRunLuau = (scopes: string[] | null) => scopes?.some((s) => s.startsWith(`${LUAU_EXECUTION_SCOPE}:`)) ?? false;

export const toOpenCloudKey = (row: KeyRow): OpenCloudKey => ({
  universeId: row.universeId,
  maskedKey: row.maskedKey,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  lastImportAt: row.lastImportAt,
  lastImportError: row.lastImportError,
  placeId: row.placeId ?? null,
  placeVersion: row.placeVersion ?? null,
  scopes: scopesOf(row),
});

/**
 * A user's Open Cloud key: checked with Roblox once before it is stored (a key Roblox refuses is
 * never stored), sealed with the server secret, shown masked. Saving and removing are audited.
 */
export function createOpenCloudKeys(deps: {
  db: Db;
  box: SecretBox;
  client: OpenCloudClient;
  clock: Clock;
  audit: Pick<ReturnType<typeof createAuditService>, 'record'>;
  /** A key was saved: its bans are imported (off the request's path). */
  onSaved: (userId: string) => void;
}) {
  const { db, box, client } = deps;
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  const actor = async (userId: string) => {
    const user = await usersRepo.findById(db, userId);
    return { id: userId, name: user?.username ?? null };
  };

  /** The key's scopes by Roblox's introspection; null when Roblox did not say (the key is then tried as before). */
  async function introspectedScopes(apiKey: string): Promise<string[] | null> {
    try {
      const answer = await client.introspect(apiKey);
      if ('scopes' in answer) return answer.scopes;
      if (answer.status === 401 || answer.status === 403)
        throw new AppError(400, `${OPEN_CLOUD_ERRORS.keyRefused} Roblox said: ${robloxErrorText(answer)}`);
      return null;
    } catch (error) {
      if (error instanceof CloudUnreachable) return null;
      throw error;
    }
  }

  async function checkBanScope(request: SaveOpenCloudKeyRequest): Promise<void> {
    let answer;
    try {
      answer = await client.listRestrictions(
        { universeId: request.universeId, apiKey: request.apiKey },
        { maxPageSize: 1 },
      );
    } catch (error) {
      if (error instanceof CloudUnreachable) throw cloudUnavailable(OPEN_CLOUD_ERRORS.robloxUnreachable);
      throw error;
    }
    if (answer.status === 400 || answer.status === 401 || answer.status === 403 || answer.status === 404)
      throw new AppError(400, `${OPEN_CLOUD_ERRORS.keyRefused} Roblox said: ${robloxErrorText(answer)}`);
    if (answer.status < 200 || answer.status >= 300) throw cloudUnavailable(OPEN_CLOUD_ERRORS.robloxUnreachable);
  }

  return {
    async get(userId: string): Promise<OpenCloudKey | null> {
      const row = await keysRepo.find(db, userId);
      return row ? toOpenCloudKey(row) : null;
    },

    /** The key as Roblox needs it, or undefined when the user has none. */
    async open(userId: string): Promise<{ universeId: string; apiKey: string } | undefined> {
      const row = await keysRepo.find(db, userId);
      return row && { universeId: row.universeId, apiKey: box.open(row.keySealed) };
    },

    scopesOf: introspectedScopes,

    async save(userId: string, request: SaveOpenCloudKeyRequest): Promise<OpenCloudKey> {
      const scopes = await introspectedScopes(request.apiKey);
      // A key for cloud runs only is not asked about bans; any other is checked with one read of one
      // restriction: the cheapest call that needs the key, the universe and the scope.
      if (mayBan(scopes)) await checkBanScope(request);
      else if (!mayRunLuau(scopes)) throw new AppError(400, OPEN_CLOUD_ERRORS.keyRefused);
      const now = nowIso();
      await keysRepo.put(
        db,
        {
          userId,
          universeId: request.universeId,
          keySealed: box.seal(request.apiKey),
          maskedKey: maskKey(request.apiKey),
          scopes: scopes && JSON.stringify(scopes),
          ...(request.placeId === undefined
            ? {}
            : { placeId: request.placeId, placeVersion: request.placeVersion ?? null }),
        },
        now,
      );
      await deps.audit.record({
        actor: await actor(userId),
        action: AUDIT_ACTIONS.accountOpenCloudKeySaved,
        targetType: 'user',
        targetId: userId,
        details: { universeId: request.universeId, key: maskKey(request.apiKey) },
      });
      if (mayBan(scopes)) deps.onSaved(userId);
      return toOpenCloudKey((await keysRepo.find(db, userId))!);
    },

    /** The place cloud runs use (a place of the key's universe), and its pinned version. */
    async savePlace(userId: string, request: SaveCloudPlaceRequest): Promise<OpenCloudKey> {
      const row = await keysRepo.find(db, userId);
      if (!row) throw new AppError(404, CLOUD_RUN_ERRORS.noKey);
      await keysRepo.update(db, userId, {
        placeId: request.placeId,
        placeVersion: request.placeVersion ?? null,
        updatedAt: nowIso(),
      });
      return toOpenCloudKey((await keysRepo.find(db, userId))!);
    },

    async remove(userId: string): Promise<void> {
      const row = await keysRepo.find(db, userId);
      if (!row || !(await keysRepo.remove(db, userId))) throw new AppError(404, OPEN_CLOUD_ERRORS.noKey);
      await deps.audit.record({
        actor: await actor(userId),
        action: AUDIT_ACTIONS.accountOpenCloudKeyRemoved,
        targetType: 'user',
        targetId: userId,
        details: { universeId: row.universeId, key: row.maskedKey },
      });
    },
  };
}

export type OpenCloudKeys = ReturnType<typeof createOpenCloudKeys>;

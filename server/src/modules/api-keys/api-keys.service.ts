import crypto from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { isWellFormedApiKey, newApiKey } from '../../security/api-keys.ts';
import { sha256Hex } from '../../security/digest.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { apiKeysRepo } from './api-keys.repo.ts';

/**
 * API keys: looked up by SHA-256 (a key carries 130 random bits, so a fast hash is enough), shown
 * again from an AES-GCM sealed copy. The key format and checksum are in security/api-keys.ts.
 */
export function createApiKeysService(deps: { db: Db; box: SecretBox }) {
  const { db, box } = deps;
  return {
    /** Issues a fresh key for the user, replacing any previous one. Pass a transaction to join it. */
    async issue(userId: string, on: Db = db): Promise<string> {
      const key = newApiKey();
      await apiKeysRepo.replaceForUser(on, {
        id: crypto.randomUUID(),
        userId,
        keyHash: sha256Hex(key),
        keyCiphertext: box.seal(key),
        createdAt: nowIso(),
      });
      return key;
    },

    /** The readable key, or null when the user has none or it was sealed under another secret. */
    async reveal(userId: string): Promise<string | null> {
      const sealed = await apiKeysRepo.sealedKeyOf(db, userId);
      if (!sealed) return null;
      try {
        return box.open(sealed);
      } catch {
        return null;
      }
    },

    /** The key's owner, or null. A malformed key is refused before any database lookup. */
    async resolve(key: string): Promise<{ apiKeyId: string; userId: string } | null> {
      if (!isWellFormedApiKey(key)) return null;
      const row = await apiKeysRepo.findByHash(db, sha256Hex(key));
      return row ? { apiKeyId: row.id, userId: row.userId } : null;
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

import crypto from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { isWellFormedApiKey, newApiKey } from '../../security/api-keys.ts';
import { sha256Hex } from '../../security/digest.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { apiKeysRepo } from './api-keys.repo.ts';

type Owner = { apiKeyId: string; userId: string };

/** Resolved keys are remembered this long; a regeneration forgets them at once, on every instance. */
const RESOLVED_TTL_MS = 30_000;
const RESOLVED_MAX_ENTRIES = 50_000;

/**
 * Keys resolved recently. Every game ping carries its key, so this saves a database read per ping.
 * A replaced key is forgotten when it is replaced (and on the other instances through the bus);
 * the time limit bounds what a lost bus message could leave behind.
 */
function resolvedKeys() {
  const byHash = new Map<string, { owner: Owner; expiresAt: number }>();
  return {
    get(hash: string): Owner | undefined {
      const entry = byHash.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt > Date.now()) return entry.owner;
      byHash.delete(hash);
      return undefined;
    },
    set(hash: string, owner: Owner): void {
      if (byHash.size >= RESOLVED_MAX_ENTRIES) byHash.delete(byHash.keys().next().value!);
      byHash.set(hash, { owner, expiresAt: Date.now() + RESOLVED_TTL_MS });
    },
    forgetUser(userId: string): void {
      for (const [hash, entry] of byHash) if (entry.owner.userId === userId) byHash.delete(hash);
    },
  };
}

/**
 * API keys: looked up by SHA-256 (a key carries 130 random bits, so a fast hash is enough), shown
 * again from an AES-GCM sealed copy. The key format and checksum are in security/api-keys.ts.
 */
export function createApiKeysService(deps: { db: Db; box: SecretBox; bus: EventBus }) {
  const { db, box, bus } = deps;
  const resolved = resolvedKeys();
  bus.subscribe((event) => {
    if (event.type === 'api-key:replaced') resolved.forgetUser(event.userId);
  });
  /** The user's old key stops working now, here and (through the bus) on every other instance. */
  const forget = (userId: string) => {
    resolved.forgetUser(userId);
    bus.publish({ type: 'api-key:replaced', userId });
  };

  return {
    forget,

    /** Issues a fresh key for the user, replacing any previous one. Pass a transaction to join it. */
    async issue(userId: string, on: Db = db): Promise<string> {
      forget(userId);
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
    async resolve(key: string): Promise<Owner | null> {
      if (!isWellFormedApiKey(key)) return null;
      const hash = sha256Hex(key);
      const known = resolved.get(hash);
      if (known) return known;
      const row = await apiKeysRepo.findByHash(db, hash);
      if (!row) return null;
      const owner = { apiKeyId: row.id, userId: row.userId };
      resolved.set(hash, owner);
      return owner;
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

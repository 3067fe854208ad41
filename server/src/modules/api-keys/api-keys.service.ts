import crypto from 'node:crypto';
import {
  API_KEY_ERRORS,
  API_KEY_SCOPES,
  INTEGRATION_KEY_NAME,
  PERSONAL_KEY_NAME,
  SCOPED_KEYS_PER_USER,
  type ApiKeyScope,
  type ApiKeySummary,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '@moonrelay/contract/api-keys';
import { ERRORS } from '@moonrelay/contract/messages';
import { TEAM_ERRORS } from '@moonrelay/contract/teams';
import { inTransaction, type Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { KeyOwner, KeyRefusal } from '../../http/context.ts';
import { isWellFormedApiKey, maskApiKey, newApiKey } from '../../security/api-keys.ts';
import { sha256Hex } from '../../security/digest.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { HeldPermissions } from '../../security/team-permissions.ts';
import { allowListOf, plainAddress, type AllowList } from './allow-list.ts';
import { apiKeysRepo } from './api-keys.repo.ts';
import { scopedKeysRepo, type ScopedKeyRow } from './scoped-keys.repo.ts';

export type KeyCheck = { owner: KeyOwner; refusal?: undefined } | { owner?: undefined; refusal: KeyRefusal };

/** What a resolved key carries besides its owner: the limits checked on every call. */
interface ResolvedKey {
  owner: KeyOwner;
  expiresAt: number | null;
  allowList: AllowList | null;
  revoked: boolean;
  creatorGone?: true;
}

/** Resolved keys are remembered this long; a regeneration or revocation forgets them at once, on every instance. */
const RESOLVED_TTL_MS = 30_000;
const RESOLVED_MAX_ENTRIES = 50_000;
/** A key's last use (time and address) is written at most this often, so a pinging game costs no write per ping. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Keys resolved recently. Every game ping carries its key, so this saves a database read per ping.
 * A replaced or revoked key is forgotten when that happens (and on the other instances through the
 * bus); the time limit bounds what a lost bus message could leave behind. A lookup that started
 * before a forget is not remembered, so a key revoked while its lookup was in flight is not kept.
 */
function resolvedKeys() {
  const byHash = new Map<string, { key: ResolvedKey; expiresAt: number }>();
  let generation = 0;
  return {
    get generation() {
      return generation;
    },
    get(hash: string): ResolvedKey | undefined {
      const entry = byHash.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt > Date.now()) return entry.key;
      byHash.delete(hash);
      return undefined;
    },
    set(hash: string, key: ResolvedKey, lookedUpIn: number): void {
      if (lookedUpIn !== generation) return;
      if (byHash.size >= RESOLVED_MAX_ENTRIES) byHash.delete(byHash.keys().next().value!);
      byHash.set(hash, { key, expiresAt: Date.now() + RESOLVED_TTL_MS });
    },
    forgetUser(userId: string): void {
      generation++;
      for (const [hash, entry] of byHash) if (entry.key.owner.userId === userId) byHash.delete(hash);
    },
  };
}

/** The member who made a team's key acts through it; a key of one's own account needs no one else. */
const madeBy = (row: { userId: string; createdBy: string | null }) =>
  row.createdBy && row.createdBy !== row.userId ? { actorId: row.createdBy } : {};

const personalKey = (row: { id: string; userId: string; createdBy: string | null }): ResolvedKey => ({
  owner: {
    apiKeyId: row.id,
    userId: row.userId,
    keyName: PERSONAL_KEY_NAME,
    scopes: API_KEY_SCOPES,
    personal: true,
    ...madeBy(row),
  },
  expiresAt: null,
  allowList: null,
  revoked: false,
});

function scopedKey(row: ScopedKeyRow): ResolvedKey {
  const allowed = row.allowedIps ? (JSON.parse(row.allowedIps) as string[]) : [];
  return {
    owner: {
      apiKeyId: row.id,
      userId: row.userId,
      keyName: row.name,
      scopes: JSON.parse(row.scopes) as ApiKeyScope[],
      personal: false,
      ...madeBy(row),
    },
    expiresAt: row.expiresAt ? Date.parse(row.expiresAt) : null,
    allowList: allowed.length > 0 ? allowListOf(allowed) : null,
    revoked: row.revokedAt !== null,
  };
}

export function toApiKeySummary(row: ScopedKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as ApiKeyScope[],
    maskedKey: row.maskedKey,
    integration: row.integration === 1,
    allowedIps: row.allowedIps ? (JSON.parse(row.allowedIps) as string[]) : null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    lastUsedIp: row.lastUsedIp,
  };
}

const INVALID: KeyRefusal = { status: 401, message: ERRORS.invalidApiKey };

/**
 * API keys: the personal key (one per user, shown again from an AES-GCM sealed copy, can do
 * everything the spec documents) and scoped keys (named, with scopes, expiry and an IP allow list;
 * docs/decisions/029). Both are looked up by SHA-256 (a key carries 130 random bits, so a fast hash
 * is enough). The key format and checksum are in security/api-keys.ts.
 */
export function createApiKeysService(deps: {
  db: Db;
  box: SecretBox;
  bus: EventBus;
  /**
   * What the member who made a team's key holds in the team now (null: no longer a member): the
   * key can do no more (docs/decisions/049).
   */
  creatorAccess: (memberId: string, teamId: string) => Promise<HeldPermissions | null>;
}) {
  const { db, box, bus, creatorAccess } = deps;
  const resolved = resolvedKeys();
  const lastTouched = new Map<string, number>();
  bus.subscribe((event) => {
    if (event.type === 'api-key:replaced') resolved.forgetUser(event.userId);
    // A member's permissions bound their keys for the team: those are looked up afresh.
    if (event.type === 'team:membership') resolved.forgetUser(event.teamId);
  });
  /** The user's changed keys are looked up afresh from now on, here and (through the bus) on every other instance. */
  const forget = (userId: string) => {
    resolved.forgetUser(userId);
    bus.publish({ type: 'api-key:replaced', userId });
  };

  async function lookUp(key: string): Promise<ResolvedKey | null> {
    const hash = sha256Hex(key);
    const known = resolved.get(hash);
    if (known) return known;
    const generation = resolved.generation;
    const personal = await apiKeysRepo.findByHash(db, hash);
    const row = personal ? undefined : await scopedKeysRepo.findByHash(db, hash);
    const found = personal ? personalKey(personal) : row ? scopedKey(row) : null;
    if (found?.owner.actorId) {
      const held = await creatorAccess(found.owner.actorId, found.owner.userId);
      // Its maker left the team (or was removed): the key stops working, and is not remembered.
      if (!held) return { ...found, creatorGone: true };
      found.owner.held = held;
    }
    // A revoked key is not remembered: it is rare, and its row answers why it is refused.
    if (found && !found.revoked && !found.creatorGone) resolved.set(hash, found, generation);
    return found;
  }

  /** Records when and from where a scoped key was last used, at most once a minute per key and instance. */
  async function touch(owner: KeyOwner, ip: string): Promise<void> {
    if (owner.personal) return;
    const now = Date.now();
    if (now - (lastTouched.get(owner.apiKeyId) ?? 0) < LAST_USED_EVERY_MS) return;
    if (lastTouched.size >= RESOLVED_MAX_ENTRIES) lastTouched.clear();
    lastTouched.set(owner.apiKeyId, now);
    await scopedKeysRepo.touch(db, owner.apiKeyId, new Date(now).toISOString(), plainAddress(ip).slice(0, 64));
  }

  async function insertScoped(
    on: Db,
    userId: string,
    fields: { name: string; scopes: readonly ApiKeyScope[]; expiresAt: string | null; allowedIps: string[] | null },
    integration: boolean,
    createdBy: string | null,
  ): Promise<{ key: string; row: ScopedKeyRow }> {
    const key = newApiKey();
    const row: ScopedKeyRow = {
      id: crypto.randomUUID(),
      userId,
      name: fields.name,
      keyHash: sha256Hex(key),
      maskedKey: maskApiKey(key),
      // Only the integration key is shown again (the dashboard's game scripts carry it); others, once.
      keyCiphertext: integration ? box.seal(key) : null,
      integration: integration ? 1 : 0,
      scopes: JSON.stringify(fields.scopes),
      allowedIps: fields.allowedIps && fields.allowedIps.length > 0 ? JSON.stringify(fields.allowedIps) : null,
      createdAt: nowIso(),
      expiresAt: fields.expiresAt,
      lastUsedAt: null,
      lastUsedIp: null,
      revokedAt: null,
      createdBy,
    };
    await scopedKeysRepo.insert(on, row);
    return { key, row };
  }

  return {
    forget,

    /**
     * Issues a fresh personal key for the account (a person's, or a team's game key, made by
     * `createdBy`), replacing any previous one. Pass a transaction to join it.
     */
    async issue(userId: string, on: Db = db, createdBy: string | null = null): Promise<string> {
      const key = newApiKey();
      await apiKeysRepo.replaceForUser(on, {
        id: crypto.randomUUID(),
        userId,
        keyHash: sha256Hex(key),
        keyCiphertext: box.seal(key),
        createdAt: nowIso(),
        createdBy: createdBy === userId ? null : createdBy,
      });
      // After the write, so a lookup that read the old key meanwhile is not remembered.
      forget(userId);
      return key;
    },

    /** The readable personal key, or null when the user has none or it was sealed under another secret. */
    async reveal(userId: string): Promise<string | null> {
      const sealed = await apiKeysRepo.sealedKeyOf(db, userId);
      if (!sealed) return null;
      try {
        return box.open(sealed);
      } catch {
        return null;
      }
    },

    /**
     * Checks a key sent from `ip`: its owner and scopes, or why it is refused (401 unknown, expired
     * or revoked; 403 from an address outside its allow list). A malformed key is refused before
     * any database lookup.
     */
    async check(key: string, ip: string): Promise<KeyCheck> {
      if (!isWellFormedApiKey(key)) return { refusal: INVALID };
      const found = await lookUp(key);
      if (!found) return { refusal: INVALID };
      if (found.revoked) return { refusal: { status: 401, message: API_KEY_ERRORS.revoked } };
      if (found.creatorGone) return { refusal: { status: 401, message: TEAM_ERRORS.keyCreatorGone } };
      if (found.expiresAt !== null && found.expiresAt <= Date.now()) {
        return { refusal: { status: 401, message: API_KEY_ERRORS.expired } };
      }
      if (found.allowList && !found.allowList.allows(ip)) {
        return { refusal: { status: 403, message: API_KEY_ERRORS.addressRefused } };
      }
      await touch(found.owner, ip);
      return { owner: found.owner };
    },

    async list(userId: string): Promise<ApiKeySummary[]> {
      return (await scopedKeysRepo.listLive(db, userId)).map(toApiKeySummary);
    },

    /**
     * Creates a scoped key; the answer is the only time the key itself is shown. 409 past the
     * per-account limit. `createdBy`: the member who makes a team's key.
     */
    async create(userId: string, input: CreateApiKeyRequest, createdBy: string | null = null): Promise<CreatedApiKey> {
      const { key, row } = await inTransaction(db, async (trx) => {
        await scopedKeysRepo.lockUser(trx, userId);
        if ((await scopedKeysRepo.countMade(trx, userId)) >= SCOPED_KEYS_PER_USER) {
          throw new AppError(409, API_KEY_ERRORS.tooManyKeys);
        }
        return insertScoped(
          trx,
          userId,
          {
            name: input.name,
            scopes: input.scopes,
            expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
            allowedIps: input.allowedIps ?? null,
          },
          false,
          createdBy === userId ? null : createdBy,
        );
      });
      return { ...toApiKeySummary(row), key };
    },

    /** Revokes one of the user's keys; it stops working at once. Answers the revoked key; 404 if none. */
    async revoke(userId: string, keyId: string): Promise<ApiKeySummary> {
      const row = await scopedKeysRepo.revoke(db, userId, keyId, nowIso());
      if (!row) throw new AppError(404, API_KEY_ERRORS.notFound);
      forget(userId);
      return toApiKeySummary(row);
    },

    /**
     * The key the dashboard's integration scripts carry: `game` scope only, made on first need and
     * shown again from its sealed copy. A copy sealed under another server secret is revoked and
     * replaced, as is one the user revoked in Settings, and a team's whose maker left the team
     * (`createdBy`: the member asking now, who makes the new one).
     */
    async integrationKey(userId: string, createdBy: string | null = null): Promise<string> {
      const maker = createdBy === userId ? null : createdBy;
      for (let attempt = 0; attempt < 3; attempt++) {
        const live = await scopedKeysRepo.findLiveIntegration(db, userId);
        const makerGone = live?.createdBy ? (await creatorAccess(live.createdBy, userId)) === null : false;
        if (live?.keyCiphertext && !makerGone) {
          try {
            return box.open(live.keyCiphertext);
          } catch {
            // Sealed under another APP_SECRET: unreadable, so make a new one below.
          }
        }
        if (live) {
          await scopedKeysRepo.revoke(db, userId, live.id, nowIso());
          forget(userId);
        }
        try {
          const fields = { name: INTEGRATION_KEY_NAME, scopes: ['game'] as const, expiresAt: null, allowedIps: null };
          return (await insertScoped(db, userId, fields, true, maker)).key;
        } catch (error) {
          // Another request made it meanwhile (one live integration key per user): read that one.
          if (!uniqueViolation(error)) throw error;
        }
      }
      throw new Error('Could not make the integration key');
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

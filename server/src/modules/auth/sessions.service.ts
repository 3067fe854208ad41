import crypto from 'node:crypto';
import { SESSION_IDLE_EXPIRY_MS } from '@moonrelay/contract/constants';
import type { Db } from '../../db/database.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { sha256Hex } from '../../security/digest.ts';
import { looksLikeSessionToken, newSessionToken } from '../../security/session-tokens.ts';
import { sessionsRepo } from './sessions.repo.ts';

/**
 * Sessions: a random bearer token whose SHA-256 is the only stored trace. A session expires after
 * 30 days without use; use within the window slides it forward. To spare a database write per
 * request, the slide is recorded at most once an hour (so expiry is exact to within that hour).
 */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export function createSessionsService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async create(userId: string, on: Db = db): Promise<string> {
      const token = newSessionToken();
      const now = nowIso();
      await sessionsRepo.insert(on, {
        id: crypto.randomUUID(),
        userId,
        tokenHash: sha256Hex(token),
        createdAt: now,
        lastUsedAt: now,
        expiresAt: isoPlus(now, SESSION_IDLE_EXPIRY_MS),
      });
      return token;
    },

    async resolve(
      token: string,
    ): Promise<{ sessionId: string; userId: string; isAdmin: boolean; hasTwoFactor: boolean } | null> {
      if (!looksLikeSessionToken(token)) return null;
      const session = await sessionsRepo.findByTokenHash(db, sha256Hex(token));
      if (!session) return null;
      const now = nowIso();
      if (session.expiresAt <= now) {
        await sessionsRepo.delete(db, session.id);
        return null;
      }
      if (Date.parse(now) - Date.parse(session.lastUsedAt) >= TOUCH_EVERY_MS) {
        await sessionsRepo.touch(db, session.id, now, isoPlus(now, SESSION_IDLE_EXPIRY_MS));
      }
      return {
        sessionId: session.id,
        userId: session.userId,
        isAdmin: session.isAdmin === 1,
        hasTwoFactor: session.twoFactorSince !== null,
      };
    },

    /**
     * Which of these sessions are still valid, and whether each one's user is an admin now: open
     * sockets are checked with it, since they proved themselves only once, at their handshake.
     */
    async stillValid(sessionIds: string[]): Promise<Map<string, { isAdmin: boolean }>> {
      if (sessionIds.length === 0) return new Map();
      const rows = await sessionsRepo.live(db, sessionIds, nowIso());
      return new Map(rows.map((row) => [row.id, { isAdmin: row.isAdmin === 1 }]));
    },

    async revoke(sessionId: string): Promise<void> {
      await sessionsRepo.delete(db, sessionId);
    },

    purgeExpired(): Promise<number> {
      return sessionsRepo.deleteExpired(db, nowIso());
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;

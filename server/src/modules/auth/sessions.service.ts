import crypto from 'node:crypto';
import { SESSION_IDLE_EXPIRY_MS } from '@moonrelay/contract/constants';
import type { SessionInfo, SignInMethod } from '@moonrelay/contract/sessions';
import type { Db } from '../../db/database.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { sha256Hex } from '../../security/digest.ts';
import { looksLikeSessionToken, newSessionToken } from '../../security/session-tokens.ts';
import { browserName } from './browser-name.ts';
import { sessionsRepo } from './sessions.repo.ts';

/**
 * Sessions: a random bearer token whose SHA-256 is the only stored trace. A session expires after
 * 30 days without use; use within the window slides it forward. To spare a database write per
 * request, the slide (and the address last used from) is recorded at most every five minutes, so
 * the sessions list's "last used" is exact to within that.
 */
const TOUCH_EVERY_MS = 5 * 60 * 1000;
/** Sudo mode: how long a proof (a sign-in, the password, a code, a passkey) allows protected changes. */
export const SUDO_WINDOW_MS = 10 * 60 * 1000;
/** The most sessions Settings lists, most recently used first. */
export const SESSIONS_LISTED_MAX = 200;
/** Longer User-Agent texts are cut: it is shown to a person, and nothing needs more. */
const USER_AGENT_MAX = 400;

/** The second factor a session passed: a code (authenticator or recovery) or a passkey. */
export type SessionSecondFactor = 'code' | 'passkey';

/** Where a request came from, as the sessions list shows it. */
export interface Device {
  address: string | null;
  userAgent: string | null;
}

export interface SignIn {
  signedInWith: SignInMethod;
  secondFactor: SessionSecondFactor | null;
  device: Device;
}

export interface ResolvedSession {
  sessionId: string;
  userId: string;
  isAdmin: boolean;
  /** The second factor this session passed (at sign-in, or since by setting one up), or null. */
  secondFactor: SessionSecondFactor | null;
  /** Until when protected changes are allowed without a new proof (ms since the epoch; 0: not now). */
  sudoUntilMs: number;
}

const asFactor = (value: string | null): SessionSecondFactor | null =>
  value === 'code' || value === 'passkey' ? value : null;

export function createSessionsService(deps: { db: Db; bus: EventBus }) {
  const { db, bus } = deps;
  return {
    /** A new session for a sign-in that has just proved itself: it starts in sudo mode. */
    async create(userId: string, signIn: SignIn, on: Db = db): Promise<string> {
      const token = newSessionToken();
      const now = nowIso();
      await sessionsRepo.insert(on, {
        id: crypto.randomUUID(),
        userId,
        tokenHash: sha256Hex(token),
        createdAt: now,
        lastUsedAt: now,
        expiresAt: isoPlus(now, SESSION_IDLE_EXPIRY_MS),
        signedInWith: signIn.signedInWith,
        secondFactor: signIn.secondFactor,
        signInAddress: signIn.device.address,
        lastAddress: signIn.device.address,
        userAgent: signIn.device.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
        provedAt: now,
      });
      return token;
    },

    async resolve(token: string, from?: string | null): Promise<ResolvedSession | null> {
      if (!looksLikeSessionToken(token)) return null;
      const session = await sessionsRepo.findByTokenHash(db, sha256Hex(token));
      if (!session) return null;
      const now = nowIso();
      if (session.expiresAt <= now) {
        await sessionsRepo.delete(db, session.id);
        return null;
      }
      if (Date.parse(now) - Date.parse(session.lastUsedAt) >= TOUCH_EVERY_MS) {
        await sessionsRepo.touch(db, session.id, now, isoPlus(now, SESSION_IDLE_EXPIRY_MS), from ?? null);
      }
      return {
        sessionId: session.id,
        userId: session.userId,
        isAdmin: session.isAdmin === 1,
        secondFactor: asFactor(session.secondFactor),
        sudoUntilMs: session.provedAt ? Date.parse(session.provedAt) + SUDO_WINDOW_MS : 0,
      };
    },

    /**
     * Which of these sessions are still valid, with each one's user's admin flag now and the second
     * factor it passed: open sockets are checked with it, since they proved themselves only once.
     */
    async stillValid(
      sessionIds: string[],
    ): Promise<Map<string, { isAdmin: boolean; secondFactor: SessionSecondFactor | null }>> {
      if (sessionIds.length === 0) return new Map();
      const rows = await sessionsRepo.live(db, sessionIds, nowIso());
      return new Map(
        rows.map((row) => [row.id, { isAdmin: row.isAdmin === 1, secondFactor: asFactor(row.secondFactor) }]),
      );
    },

    /** The account's sessions for Settings, the caller's own marked. */
    async list(userId: string, currentSessionId: string): Promise<SessionInfo[]> {
      const rows = await sessionsRepo.listOf(db, userId, nowIso(), SESSIONS_LISTED_MAX);
      return rows.map((row) => ({
        id: row.id,
        createdAt: row.createdAt,
        lastUsedAt: row.lastUsedAt,
        signInAddress: row.signInAddress,
        lastAddress: row.lastAddress,
        userAgent: row.userAgent,
        browser: browserName(row.userAgent),
        signedInWith: (row.signedInWith as SignInMethod) ?? 'password',
        secondFactor: asFactor(row.secondFactor),
        current: row.id === currentSessionId,
      }));
    },

    /** Ends one of the user's sessions; its sockets close at once. False: no such session of theirs. */
    async end(userId: string, sessionId: string): Promise<boolean> {
      if (!(await sessionsRepo.deleteOf(db, userId, sessionId))) return false;
      bus.publish({ type: 'session:ended', userId, sessionId });
      return true;
    },

    /** Ends every session of the user but `keepSessionId`; answers how many were signed in. */
    async endOthers(userId: string, keepSessionId: string, on: Db = db): Promise<number> {
      const ended = await sessionsRepo.deleteOthers(on, userId, keepSessionId, nowIso());
      bus.publish({ type: 'session:ended', userId, exceptSessionId: keepSessionId });
      return ended;
    },

    /** The session proved itself again (password, code, passkey): protected changes for the next 10 minutes. */
    async proved(sessionId: string): Promise<number> {
      const now = nowIso();
      await sessionsRepo.setProved(db, sessionId, now);
      return Date.parse(now) + SUDO_WINDOW_MS;
    },

    /** The session passed a second factor after sign-in (by setting one up with a code or a passkey). */
    async passedSecondFactor(sessionId: string, factor: SessionSecondFactor): Promise<void> {
      await sessionsRepo.setSecondFactor(db, sessionId, factor);
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

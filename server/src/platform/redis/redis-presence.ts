import type { Redis } from 'ioredis';
import type { PlayerData } from '@moonrelay/contract/game';
import type { Presence, ServerPresence } from '../presence.ts';

const PREFIX = 'mr:presence:';
/** Servers pinging and not yet announced gone, scored by last ping. */
const LIVE = `${PREFIX}live`;
/** Users with any known server, scored by their latest ping. */
const USERS = `${PREFIX}users`;
/** Entries are forgotten this long after their last ping (matches the memory presence's caller). */
const FORGET_AFTER_MS = 10 * 60 * 1000;

interface Stored {
  gameData: PlayerData | null;
  lastPingMs: number;
  connectedAtMs: number;
}

const userKey = (userId: string) => `${PREFIX}user:${userId}`;
const member = (userId: string, serverId: string) => `${userId}\n${serverId}`;

function parse(userId: string, serverId: string, raw: string): ServerPresence {
  const stored = JSON.parse(raw) as Stored;
  return { userId, serverId, ...stored };
}

/**
 * Presence in Redis: a game pinging any instance is connected for all of them. Each user's
 * servers are one hash; two sorted sets answer "who went quiet" and "who is known". A disconnect is
 * announced by the one instance whose ZREM removes the server from the live set, so it is announced
 * once however many instances sweep.
 */
export function createRedisPresence(redis: Redis, windowMs: number): Presence {
  const newestFirst = (a: ServerPresence, b: ServerPresence) => b.lastPingMs - a.lastPingMs;

  async function readUser(userId: string, nowMs: number): Promise<ServerPresence[]> {
    const all = await redis.hgetall(userKey(userId));
    const known: ServerPresence[] = [];
    const stale: string[] = [];
    for (const [serverId, raw] of Object.entries(all)) {
      const entry = parse(userId, serverId, raw);
      if (nowMs - entry.lastPingMs >= FORGET_AFTER_MS) stale.push(serverId);
      else known.push(entry);
    }
    if (stale.length) await redis.hdel(userKey(userId), ...stale);
    return known.sort(newestFirst);
  }

  return {
    async touch(userId, serverId, gameData, nowMs) {
      const raw = await redis.hget(userKey(userId), serverId);
      const previous = raw ? parse(userId, serverId, raw) : undefined;
      const connected = !previous || nowMs - previous.lastPingMs >= windowMs;
      const stored: Stored = {
        gameData: gameData ?? previous?.gameData ?? null,
        lastPingMs: nowMs,
        connectedAtMs: connected ? nowMs : previous.connectedAtMs,
      };
      await redis
        .multi()
        .hset(userKey(userId), serverId, JSON.stringify(stored))
        .zadd(LIVE, nowMs, member(userId, serverId))
        .zadd(USERS, nowMs, userId)
        .exec();
      return { presence: { userId, serverId, ...stored }, connected };
    },

    async get(userId, serverId) {
      const raw = await redis.hget(userKey(userId), serverId);
      if (!raw) return undefined;
      const entry = parse(userId, serverId, raw);
      return Date.now() - entry.lastPingMs < FORGET_AFTER_MS ? entry : undefined;
    },

    list(userId) {
      return readUser(userId, Date.now());
    },

    async listAll() {
      const nowMs = Date.now();
      const users = await redis.zrangebyscore(USERS, nowMs - FORGET_AFTER_MS, '+inf');
      const lists = await Promise.all(users.map((userId) => readUser(userId, nowMs)));
      return lists.flat().sort(newestFirst);
    },

    async takeDisconnected(nowMs, window, forgetMs) {
      const quiet = await redis.zrangebyscore(LIVE, '-inf', nowMs - window);
      const gone: ServerPresence[] = [];
      for (const entry of quiet) {
        if ((await redis.zrem(LIVE, entry)) !== 1) continue; // another instance announced it
        const [userId, serverId] = entry.split('\n') as [string, string];
        const raw = await redis.hget(userKey(userId), serverId);
        if (raw) gone.push(parse(userId, serverId, raw));
      }
      const forgotten = await redis.zrangebyscore(USERS, '-inf', nowMs - forgetMs);
      for (const userId of forgotten) {
        await redis.multi().del(userKey(userId)).zrem(USERS, userId).exec();
      }
      return gone;
    },

    async close() {},
  };
}

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

/**
 * A ping in one round trip: reads the server's entry, decides whether this ping (re)connects it,
 * writes it back (keeping the player data when the ping has none) and marks the server and its user
 * live. The entry is written with its player data last, so the script reads the numbers and cuts the
 * data out as text: no JSON is decoded or re-encoded in Redis. Entries written before (player data
 * first) are read too.
 */
const TOUCH_SCRIPT = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[7]) then return false end
local now = ARGV[2]
local connected = 1
local connectedAt = now
local data = ARGV[4]
if raw then
  local last = tonumber(string.match(raw, '"lastPingMs":(%d+)'))
  if last and tonumber(now) - last < tonumber(ARGV[3]) then
    connected = 0
    connectedAt = string.match(raw, '"connectedAtMs":(%d+)') or now
  end
  if data == '' then
    data = string.match(raw, '^{"gameData":(.*),"lastPingMs":%d+,"connectedAtMs":%d+}$')
      or string.match(raw, ',"gameData":(.*)}$') or ''
  end
end
if data == '' then data = 'null' end
redis.call('HSET', KEYS[1], ARGV[1], '{"lastPingMs":' .. now .. ',"connectedAtMs":' .. connectedAt .. ',"gameData":' .. data .. '}')
redis.call('ZADD', KEYS[2], now, ARGV[5])
redis.call('ZADD', KEYS[3], now, ARGV[6])
return {connected, connectedAt, data}
`;

interface TouchCommand {
  /** Null when the server is new and the user has the most servers presence takes. */
  moonrelayPresenceTouch(...args: string[]): Promise<[number, string, string] | null>;
}

/** The script as a command of this client (sent once, then called by its hash). */
function touchScript(redis: Redis): TouchCommand {
  const client = redis as Redis & Partial<TouchCommand>;
  if (!client.moonrelayPresenceTouch)
    redis.defineCommand('moonrelayPresenceTouch', { numberOfKeys: 3, lua: TOUCH_SCRIPT });
  return client as unknown as TouchCommand;
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
export function createRedisPresence(
  redis: Redis,
  windowMs: number,
  maxServersPerUser = Number.MAX_SAFE_INTEGER,
): Presence {
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
      const touched = await touchScript(redis).moonrelayPresenceTouch(
        userKey(userId),
        LIVE,
        USERS,
        serverId,
        String(nowMs),
        String(windowMs),
        gameData ? JSON.stringify(gameData) : '',
        member(userId, serverId),
        userId,
        String(maxServersPerUser),
      );
      if (!touched) return undefined;
      const [connected, connectedAtMs, storedData] = touched;
      return {
        presence: {
          userId,
          serverId,
          gameData: gameData ?? (JSON.parse(storedData) as PlayerData | null),
          lastPingMs: nowMs,
          connectedAtMs: Number(connectedAtMs),
        },
        connected: connected === 1,
      };
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

    async liveCount(userId, nowMs, window) {
      // Each entry's last ping is read out of its text; no JSON is decoded.
      let live = 0;
      for (const raw of await redis.hvals(userKey(userId))) {
        const last = Number(/"lastPingMs":(\d+)/.exec(raw)?.[1]);
        if (nowMs - last < window) live += 1;
      }
      return live;
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

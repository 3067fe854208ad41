import type { Redis } from 'ioredis';
import type { SharedPacer } from '../shared-pacer.ts';

const PREFIX = 'mr:pace:';

/*
 * Both scripts read Redis's own clock (TIME), so instances whose clocks disagree still space their
 * calls correctly. The next free start is kept in one key; reserving moves it on atomically.
 */
const RESERVE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[1])
local nextStart = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = math.max(now, nextStart)
local wait = start - now
if wait > tonumber(ARGV[2]) then return -1 end
redis.call('SET', KEYS[1], start + interval, 'PX', wait + interval + 1000)
return wait
`;

const PAUSE = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
`;

export function createRedisPacer(redis: Redis, name: string): SharedPacer {
  const nextStartKey = `${PREFIX}${name}:next`;
  const pauseKey = `${PREFIX}${name}:paused`;
  return {
    async reserve(intervalMs, maxWaitMs) {
      const wait = Number(await redis.eval(RESERVE, 1, nextStartKey, Math.round(intervalMs), Math.round(maxWaitMs)));
      return wait < 0 ? null : wait;
    },
    async pause(ms) {
      await redis.eval(PAUSE, 1, pauseKey, Math.max(1, Math.round(ms)));
    },
    async pausedFor() {
      return Math.max(0, await redis.pttl(pauseKey));
    },
  };
}

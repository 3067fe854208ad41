/**
 * Roblox's limits on restriction updates (its Ban API reference): at most 2 updates a minute for
 * the same user and 10 a second per universe. Moonrelay keeps under them from its own record of
 * what it sent, so a burst of bans waits its turn instead of earning 429s; a 429 still comes when
 * another tool (Creator Hub, a script) spent the same budget, and is waited out as Roblox says.
 */
export const PER_USER = { count: 2, windowMs: 60_000 };
export const PER_UNIVERSE = { count: 10, windowMs: 1_000 };

/**
 * The earliest time (ms) one more send fits in a window, given the sends inside it (oldest first):
 * when `count` were sent already, the oldest of the last `count` must first leave the window.
 */
export function nextAllowedMs(sentAtMs: number[], limit: { count: number; windowMs: number }, nowMs: number): number {
  const inWindow = sentAtMs.filter((at) => at > nowMs - limit.windowMs);
  if (inWindow.length < limit.count) return nowMs;
  return inWindow[inWindow.length - limit.count]! + limit.windowMs;
}

/** The longest wait between two tries of an update Roblox did not take (429 without Retry-After, 5xx). */
const BACKOFF_MAX_MS = 5 * 60_000;

/** Exponential backoff with jitter between half and all of the step. */
export function backoffMs(baseMs: number, attempts: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

import type { ModerationAction } from '@moonrelay/contract/moderation';

/** A ban's or unban's state as a badge colour: waiting, in Roblox, or refused. */
export const BAN_STATE_PALETTES: Record<ModerationAction['state'], string> = {
  pending: 'yellow',
  applied: 'green',
  failed: 'red',
};

/** How a ban reaches Roblox, in words. */
export const BAN_PATH_LABELS = { game: 'game server', open_cloud: 'Open Cloud' } as const;

/** "permanent", or the length of a timed ban in the largest whole unit. */
export function formatBanLength(seconds: number | null): string {
  if (seconds === null) return 'permanent';
  for (const [unit, size] of [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count.toLocaleString()} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds.toLocaleString()} s`;
}

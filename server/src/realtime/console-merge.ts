import type { ConsoleDrop, ConsoleLine, ConsoleLinesEvent } from '@moonrelay/contract/console';

/**
 * One user's console lines waiting for the next `console:lines` emission: at most `maxLines` of
 * them, the newest; the older ones are counted per game server as a 'live' drop (they are stored,
 * the API has them). Drops of the same server and reason are added up. Lines may come from several
 * instances out of order; the ids (handed out by the database in the order lines were received)
 * put them back in order.
 */
export interface MergedConsole {
  lines: ConsoleLine[];
  /** `${serverId}\n${reason}` -> the drop. */
  drops: Map<string, ConsoleDrop>;
}

export const emptyConsole = (): MergedConsole => ({ lines: [], drops: new Map() });

const byId = (a: ConsoleLine, b: ConsoleLine) => Number(a.id) - Number(b.id);

function addDrop(into: MergedConsole, drop: ConsoleDrop): void {
  const reason = drop.reason ?? 'game';
  const key = `${drop.serverId}\n${reason}`;
  const known = into.drops.get(key);
  if (known) known.count += drop.count;
  else into.drops.set(key, { ...drop, reason });
}

/** Keeps the newest `maxLines`, counting the rest as 'live' drops of their servers. */
function trim(into: MergedConsole, maxLines: number): void {
  into.lines.sort(byId);
  const excess = into.lines.length - maxLines;
  if (excess <= 0) return;
  for (const line of into.lines.splice(0, excess)) {
    addDrop(into, { serverId: line.serverId, count: 1, time: line.time, reason: 'live' });
  }
}

export function mergeConsole(into: MergedConsole, lines: ConsoleLine[], drops: ConsoleDrop[], maxLines: number): void {
  for (const drop of drops) addDrop(into, drop);
  for (const line of lines) into.lines.push(line);
  // Trimmed as it grows (not on every add), so a flood costs a sort now and then, not per line.
  if (into.lines.length > 2 * maxLines) trim(into, maxLines);
}

/** The event for what is waiting (lines oldest first). */
export function toConsoleEvent(userId: string, merged: MergedConsole, maxLines: number): ConsoleLinesEvent {
  trim(merged, maxLines);
  return { userId, lines: merged.lines, drops: [...merged.drops.values()] };
}

import type { GameServersChange } from '@moonrelay/contract/events';
import type { EventBus } from '../../platform/event-bus.ts';
import type { ServerPresence } from '../../platform/presence.ts';
import { toGameServer } from './game-server-view.ts';

/** Changes noted within this long of the last publication wait for the next one. */
export const SERVER_CHANGES_TICK_MS = 50;

interface UserChanges {
  /** Servers that pinged (or joined): the latest presence of each. */
  pinged: Map<string, ServerPresence>;
  /** Servers that stopped pinging: their last ping. */
  gone: Map<string, number>;
}

/**
 * Gathers what pings and the disconnect sweep change in game servers, and publishes it as one bus
 * event per tick for every user together. A ping only sets a map entry, whatever the number of the
 * user's servers: no list is built, sorted or encoded on its path. The first change after a quiet
 * tick goes out on the next turn of the event loop (so a lone connect is seen at once); a burst is
 * gathered into at most one event per SERVER_CHANGES_TICK_MS. In the scale-out mode each instance
 * publishes its own pings' changes; the socket hub merges them per user before any screen sees them.
 */
export function createServerChanges(bus: EventBus, tickMs = SERVER_CHANGES_TICK_MS) {
  let pending = new Map<string, UserChanges>();
  let scheduled: ReturnType<typeof setTimeout> | undefined;
  let lastPublishedMs = 0;

  function forUser(userId: string): UserChanges {
    let changes = pending.get(userId);
    if (!changes) pending.set(userId, (changes = { pinged: new Map(), gone: new Map() }));
    return changes;
  }

  function schedule(): void {
    if (scheduled !== undefined) return;
    const delay = Math.max(0, lastPublishedMs + tickMs - Date.now());
    scheduled = setTimeout(publish, delay);
    scheduled.unref?.();
  }

  function publish(): void {
    scheduled = undefined;
    if (pending.size === 0) return;
    const taken = pending;
    pending = new Map();
    lastPublishedMs = Date.now();
    const changes: GameServersChange[] = [];
    for (const [userId, { pinged, gone }] of taken) {
      changes.push({
        userId,
        servers: [...pinged.values()].map((presence) => toGameServer(presence, lastPublishedMs)),
        gone: [...gone].map(([serverId, lastPingMs]) => ({ serverId, lastPing: new Date(lastPingMs).toISOString() })),
      });
    }
    bus.publish({ type: 'game:servers', changes });
  }

  return {
    pinged(presence: ServerPresence): void {
      const changes = forUser(presence.userId);
      changes.gone.delete(presence.serverId);
      changes.pinged.set(presence.serverId, presence);
      schedule();
    },
    gone(presence: ServerPresence): void {
      const changes = forUser(presence.userId);
      changes.pinged.delete(presence.serverId);
      changes.gone.set(presence.serverId, presence.lastPingMs);
      schedule();
    },
    /** Publishes what is waiting now (at shutdown). */
    flush(): void {
      clearTimeout(scheduled);
      publish();
    },
    close(): void {
      clearTimeout(scheduled);
      scheduled = undefined;
      pending.clear();
    },
  };
}

export type ServerChanges = ReturnType<typeof createServerChanges>;

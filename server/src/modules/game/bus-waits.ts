import type { CommandView } from '@moonrelay/contract/game';
import type { BusEvent, EventBus } from '../../platform/event-bus.ts';

const TERMINAL = new Set(['succeeded', 'failed', 'expired']);

type Waiter = (event: BusEvent) => void;

/**
 * Waiting on the bus for something to happen elsewhere (a game's result, a command queued for a
 * long-polling game). One bus subscription serves every wait, with waits indexed by what they wait
 * for, so thousands of held long-polls cost nothing per unrelated event. Waits end early when the
 * server shuts down, so no request holds up a shutdown.
 */
export function createBusWaits(bus: EventBus) {
  const byKey = new Map<string, Set<Waiter>>();
  const releases = new Set<() => void>();
  // Once draining, new waits end at once too (a kept-alive connection may still bring a long-poll).
  let draining = false;

  const notify = (key: string, event: BusEvent) => {
    const waiters = byKey.get(key);
    if (waiters) for (const waiter of [...waiters]) waiter(event);
  };
  bus.subscribe((event) => {
    if (event.type === 'command:update' && TERMINAL.has(event.command.status))
      notify(`command:${event.command.id}`, event);
    if (event.type === 'command:queued') notify(`queued:${event.userId}`, event);
    if (event.type === 'command:broadcast') notify(`queued:${event.broadcast.userId}`, event);
    // A team's member removed, or their permissions changed: pings held with their keys end.
    if (event.type === 'team:membership') notify(`queued:${event.teamId}`, event);
  });

  /** Registers at once (before the promise is awaited), so nothing published after the call is missed. */
  function waitFor<T>(
    key: string,
    match: (event: BusEvent) => T | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T | null> {
    if (draining) return Promise.resolve(null);
    return new Promise((resolve) => {
      const finish = (value: T | null) => {
        clearTimeout(timer);
        const waiters = byKey.get(key);
        waiters?.delete(waiter);
        if (waiters?.size === 0) byKey.delete(key);
        releases.delete(release);
        signal?.removeEventListener('abort', release);
        resolve(value);
      };
      const waiter: Waiter = (event) => {
        const value = match(event);
        if (value !== undefined) finish(value);
      };
      const release = () => finish(null);
      const timer = setTimeout(release, timeoutMs);
      releases.add(release);
      let waiters = byKey.get(key);
      if (!waiters) byKey.set(key, (waiters = new Set()));
      waiters.add(waiter);
      signal?.addEventListener('abort', release, { once: true });
    });
  }

  return {
    /** The command's final state, or null if it did not finish within `timeoutMs`. */
    commandFinished(commandId: string, timeoutMs: number, signal?: AbortSignal): Promise<CommandView | null> {
      return waitFor(
        `command:${commandId}`,
        (event) => (event.type === 'command:update' ? event.command : undefined),
        timeoutMs,
        signal,
      );
    },

    /**
     * Resolves when a command is queued that this server may take, or a broadcast is sent (true), or
     * at the timeout (null). A wait ends once, so a burst of commands wakes each held ping once.
     *
     * `keyMadeBy`: the team's member whose key holds the ping. A change to their membership (removed,
     * left, their permissions changed) or the team's deletion ends it with nothing (false): what the
     * key may do is judged again at its next ping, and a command queued meanwhile is not handed to
     * a key that may no longer take it (docs/decisions/049).
     */
    commandQueued(
      userId: string,
      serverId: string,
      timeoutMs: number,
      signal?: AbortSignal,
      keyMadeBy?: string,
    ): Promise<boolean | null> {
      return waitFor(
        `queued:${userId}`,
        (event) => {
          if (event.type === 'team:membership') {
            return keyMadeBy !== undefined && (event.userId === keyMadeBy || event.change === 'deleted')
              ? false
              : undefined;
          }
          return event.type === 'command:broadcast' ||
            (event.type === 'command:queued' &&
              event.serverIds.some((target) => target === null || target === serverId))
            ? true
            : undefined;
        },
        timeoutMs,
        signal,
      );
    },

    /** Ends every wait now, and every later one at once (shutdown). */
    releaseAll(): void {
      draining = true;
      for (const release of [...releases]) release();
    },

    get pending(): number {
      return releases.size;
    },
  };
}

export type BusWaits = ReturnType<typeof createBusWaits>;

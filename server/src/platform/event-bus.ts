import type { CommandView } from '@moonrelay/contract/game';
import type { GameServersChange } from '@moonrelay/contract/events';
import type { ExecutionResponse } from '@moonrelay/contract/executions';
import type { AuditEntry, MassProgress, MassProgressStatus } from '@moonrelay/contract/admin';
import type { RunSummary } from '@moonrelay/contract/runs';
import type { CloudLogLine, CloudRunState } from '@moonrelay/contract/cloud-runs';
import type { ConsoleDrop, ConsoleLine } from '@moonrelay/contract/console';
import type { SimulatorStopReason } from '@moonrelay/contract/simulator';

/**
 * Every state change a screen shows, and the wake-ups one part of the server sends another (a
 * queued command wakes the long-polls waiting for it; a command's result wakes the execute call
 * waiting for it). One interface, so the embedded mode dispatches in process and the scale-out mode
 * over Redis pub/sub, and a result that reaches one instance wakes a caller waiting on another.
 */
export type BusEvent =
  | { type: 'game:servers'; changes: GameServersChange[] }
  | { type: 'command:update'; command: CommandView }
  | { type: 'execution:result'; userId: string; execution: ExecutionResponse }
  | { type: 'execution:updated'; userId: string; run: RunSummary }
  /** New log lines of a cloud run (and where it is), as read from Roblox. */
  | { type: 'execution:logs'; userId: string; executionId: string; state: CloudRunState; lines: CloudLogLine[] }
  | { type: 'command:queued'; userId: string; serverIds: (string | null)[] }
  /** A command to every live server of the user was sent: each instance offers it to its pings. */
  | { type: 'command:broadcast'; broadcast: OpenBroadcast }
  | { type: 'audit:entry'; entry: AuditEntry }
  | { type: 'mass:progress'; progress: MassProgress }
  /** A mass execution's last part ended (published once, by the process that saw it end). */
  | { type: 'mass:finished'; batch: MassBatchSummary }
  | { type: 'user:role'; userId: string; isAdmin: boolean }
  /** Someone joined or left a team, or their permissions in it changed: their sockets are judged again. */
  | {
      type: 'team:membership';
      teamId: string;
      userId: string;
      /** What happened, for the team's notifications ('deleted': the team itself went). */
      change: 'joined' | 'left' | 'removed' | 'changed' | 'deleted';
      /** The member's username, and their role after the change. */
      username: string | null;
      role: string | null;
    }
  /** The user's keys changed (a new personal key, a key revoked): cached lookups are dropped. */
  | { type: 'api-key:replaced'; userId: string }
  /** The user's personal key was regenerated, by them or by an admin (told to the user). */
  | { type: 'api-key:regenerated'; userId: string; byAdmin: boolean }
  /**
   * Sessions that stopped being valid (a logout: that one; the account deleted: all of the user's):
   * their open sockets are closed at once, not at the next recheck.
   */
  | { type: 'session:ended'; userId: string; sessionId?: string; exceptSessionId?: string }
  /** New console lines of one user's game servers, gathered per instance (at most a few a second per user). */
  | { type: 'console:lines'; userId: string; lines: ConsoleLine[]; drops: ConsoleDrop[] }
  /** A schedule's last run, error or skip count changed (its screens fetch it again). */
  | { type: 'schedule:updated'; userId: string; scheduleId: string; scriptId: string }
  /** Players joined or left one user's game servers (at most once a second per user and instance). */
  | { type: 'players:changed'; userId: string }
  /** Stop the user's simulated game server, on whichever instance runs it (modules/simulator). */
  | { type: 'simulator:stop'; userId: string }
  /** The user's simulated game server stopped, after its last ping (every instance notes it). */
  | { type: 'simulator:stopped'; userId: string; reason: SimulatorStopReason; atMs: number; error: string | null };

/**
 * A broadcast servers may still take, as each instance keeps it in memory: the `command:broadcast`
 * event carries it to every instance.
 */
export interface OpenBroadcast {
  id: string;
  userId: string;
  type: string;
  /** JSON text of the command's data. */
  data: string;
  source: string;
  createdAt: string;
  expiresAt: string;
}

/** A finished mass execution: who started it and how its parts ended. */
export interface MassBatchSummary {
  batchId: string;
  initiatedBy: string | null;
  kind: 'command' | 'code';
  startedAt: string;
  finishedAt: string;
  /** Parts by how they ended. */
  counts: Partial<Record<MassProgressStatus, number>>;
}

export type BusHandler = (event: BusEvent) => void;

export interface EventBus {
  publish(event: BusEvent): void;
  /** Answers the function that unsubscribes. */
  subscribe(handler: BusHandler): () => void;
  close(): Promise<void>;
}

/** In-process bus. A failing subscriber is reported and does not stop the others (or the publisher). */
export function createMemoryEventBus(onError: (error: unknown, event: BusEvent) => void): EventBus {
  const handlers = new Set<BusHandler>();
  return {
    publish(event) {
      for (const handler of handlers) {
        try {
          handler(event);
        } catch (error) {
          onError(error, event);
        }
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      handlers.clear();
    },
  };
}

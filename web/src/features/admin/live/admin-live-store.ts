import { create } from 'zustand';
import type { MassProgress, MassProgressStatus } from '@moonrelay/contract/admin';
import type { CommandView, GameCommandType } from '@moonrelay/contract/game';

/**
 * What the live socket tells the Admin Panel beyond its lists: how the commands an admin sent from
 * the Connections tab are doing (`command:update`) and every user's part of each mass execution
 * (`mass:progress`). Events can arrive before the call that caused them has answered (a long-polling
 * game takes a command within milliseconds; a mass-execution job may start before the answer is
 * sent), so they are kept whether or not a screen waits on them yet. Only recent ones are kept.
 */
export const ADMIN_LIVE_COMMANDS_KEPT = 200;
export const ADMIN_LIVE_BATCHES_KEPT = 20;

/** Who took part in a mass execution, as the Users tab named them when it started. */
export interface BatchUser {
  id: string;
  name: string;
  username: string;
}

export interface MassBatch {
  batchId: string;
  /** 'heal', 'teleport'... for a command; 'script' for code. */
  what: GameCommandType | 'script';
  users: BatchUser[];
  startedAt: string;
}

interface AdminLiveState {
  /** Latest state of each command, by command id (every user's: admins receive them all). */
  commands: Record<string, CommandView>;
  /** The command each connection card sent last, by `connectionKey`. */
  sentFromCard: Record<string, { commandId: string; type: GameCommandType }>;
  /** Mass executions this admin started here, newest first. */
  batches: MassBatch[];
  /** Every user's part of each batch, by batch id then user id. */
  progress: Record<string, Record<string, MassProgress>>;
  commandUpdated(command: CommandView): void;
  commandSentFromCard(key: string, commandId: string, type: GameCommandType): void;
  batchStarted(batch: MassBatch, items: MassProgress[]): void;
  progressArrived(progress: MassProgress): void;
  clear(): void;
}

export const connectionKey = (userId: string, serverId: string) => `${userId}\n${serverId}`;

/** How far a part has got: a later step never gives way to an earlier one arriving late. */
const STEP: Record<MassProgressStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  succeeded: 4,
  failed: 4,
  not_connected: 4,
  expired: 4,
};

export const isFinalProgress = (status: MassProgressStatus) => STEP[status] === 4;

/** The newer of two reports of the same part (a report of an equal or later step wins). */
export function laterProgress(current: MassProgress | undefined, next: MassProgress): MassProgress {
  return current && STEP[current.status] > STEP[next.status] ? current : next;
}

/** Adds or replaces `key`, dropping the oldest entries beyond `limit` (objects keep insertion order). */
function keepRecent<T>(entries: Record<string, T>, key: string, value: T, limit: number): Record<string, T> {
  const { [key]: _previous, ...others } = entries;
  const kept = Object.entries(others).slice(-(limit - 1));
  return { ...Object.fromEntries(kept), [key]: value };
}

function withProgress(state: AdminLiveState, items: MassProgress[]): AdminLiveState['progress'] {
  let progress = state.progress;
  for (const item of items) {
    const parts = progress[item.batchId] ?? {};
    const merged = { ...parts, [item.userId]: laterProgress(parts[item.userId], item) };
    progress = keepRecent(progress, item.batchId, merged, ADMIN_LIVE_BATCHES_KEPT * 2);
  }
  return progress;
}

export const useAdminLiveStore = create<AdminLiveState>((set) => ({
  commands: {},
  sentFromCard: {},
  batches: [],
  progress: {},
  commandUpdated: (command) =>
    set((state) => ({ commands: keepRecent(state.commands, command.id, command, ADMIN_LIVE_COMMANDS_KEPT) })),
  commandSentFromCard: (key, commandId, type) =>
    set((state) => ({ sentFromCard: { ...state.sentFromCard, [key]: { commandId, type } } })),
  batchStarted: (batch, items) =>
    set((state) => ({
      batches: [batch, ...state.batches.filter((b) => b.batchId !== batch.batchId)].slice(0, ADMIN_LIVE_BATCHES_KEPT),
      progress: withProgress(state, items),
    })),
  progressArrived: (progress) => set((state) => ({ progress: withProgress(state, [progress]) })),
  clear: () => set({ commands: {}, sentFromCard: {}, batches: [], progress: {} }),
}));

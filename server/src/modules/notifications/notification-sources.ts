import type { ConsoleLine } from '@moonrelay/contract/console';
import type { MassProgressStatus } from '@moonrelay/contract/admin';
import type { BusEvent, MassBatchSummary } from '../../platform/event-bus.ts';
import type { ServerPresence } from '../../platform/presence.ts';
import type { RaisedEvent } from './notifier.ts';

/**
 * Servers connecting (or disconnecting) with less than this between one and the next are told as one
 * message, once it has been this quiet — or once SERVER_BURST_MAX_MS passed since the first.
 */
export const SERVER_BURST_MS = 3_000;
export const SERVER_BURST_MAX_MS = 30_000;
/** Server ids a burst message names; the rest are counted. */
const SERVERS_NAMED = 10;

type Raise = (userId: string, build: () => RaisedEvent) => void;

/**
 * Gathers one user's server connects (or disconnects) into one event per burst window: 300 servers
 * stopping within a few seconds is "300 servers disconnected", not 300 messages. Noting a server
 * is a map write; the window's timer raises the event.
 */
function createServerBursts(kind: 'server.connected' | 'server.disconnected', raise: Raise, windowMs: number) {
  const open = new Map<string, { serverIds: string[]; count: number; timer: NodeJS.Timeout; firstMs: number }>();
  const verb = kind === 'server.connected' ? 'connected' : 'disconnected';
  const close = (userId: string) => {
    const burst = open.get(userId);
    if (!burst) return;
    open.delete(userId);
    const { count, serverIds } = burst;
    const more = count - serverIds.length;
    raise(userId, () => ({
      kind,
      title: count === 1 ? `Game server ${verb}` : `${count} game servers ${verb}`,
      description:
        count === 1
          ? `Server ${serverIds[0]} ${verb}.`
          : `${serverIds.join(', ')}${more > 0 ? ` and ${more} more` : ''} ${verb} within ${Math.max(1, Math.round((Date.now() - burst.firstMs) / 1000))} seconds.`,
      path: '/dashboard',
      fields: [{ name: 'Servers', value: String(count) }],
      data: { count, serverIds },
    }));
  };
  return {
    note(userId: string, serverId: string): void {
      const burst = open.get(userId);
      if (burst) {
        burst.count++;
        if (burst.serverIds.length < SERVERS_NAMED) burst.serverIds.push(serverId);
        // Still coming: wait for a quiet spell (refresh re-arms the same timer, no new one).
        if (Date.now() - burst.firstMs < SERVER_BURST_MAX_MS) burst.timer.refresh();
        return;
      }
      const timer = setTimeout(() => close(userId), windowMs);
      timer.unref();
      open.set(userId, { serverIds: [serverId], count: 1, timer, firstMs: Date.now() });
    },
    /** Raises what is gathered now (shutdown, tests). */
    flush(): void {
      for (const [userId, burst] of open) {
        clearTimeout(burst.timer);
        close(userId);
      }
    },
  };
}

/** Console errors within this long of the first are told as one message: the first error and the count. */
export const ERROR_BURST_MS = 60_000;

/** Gathers a user's console errors into one event per window: the first error, and how many came. */
function createErrorBursts(raise: Raise, windowMs: number) {
  const open = new Map<string, { first: ConsoleLine; count: number; timer: NodeJS.Timeout }>();
  const close = (userId: string) => {
    const burst = open.get(userId);
    if (!burst) return;
    open.delete(userId);
    const { first, count } = burst;
    raise(userId, () => ({
      kind: 'console.error-burst',
      title: count === 1 ? 'An error in the console' : `${count} errors in the console`,
      description: `First, on ${first.serverId}${first.script ? ` in ${first.script}` : ''}: ${first.text}`,
      path: '/console',
      fields: [
        { name: 'Errors', value: String(count) },
        { name: 'Server', value: first.serverId },
      ],
      data: { count, first: { serverId: first.serverId, time: first.time, text: first.text, script: first.script } },
    }));
  };
  return {
    note(userId: string, lines: ConsoleLine[]): void {
      for (const line of lines) {
        if (line.level !== 'error' || line.own) continue;
        const burst = open.get(userId);
        if (burst) {
          burst.count++;
          continue;
        }
        const timer = setTimeout(() => close(userId), windowMs);
        timer.unref();
        open.set(userId, { first: line, count: 1, timer });
      }
    },
    flush(): void {
      for (const [userId, burst] of open) {
        clearTimeout(burst.timer);
        close(userId);
      }
    },
  };
}

/**
 * Turns what happens in Moonrelay into notification events. It sees the bus events this process
 * publishes (not those of other instances, so each event is raised once, by the process where it
 * happened) and the game link's server changes.
 */
export function createNotificationSources(
  raise: Raise,
  options: { serverBurstMs?: number; errorBurstMs?: number } = {},
) {
  const windowMs = options.serverBurstMs ?? SERVER_BURST_MS;
  const errors = createErrorBursts(raise, options.errorBurstMs ?? ERROR_BURST_MS);
  const connected = createServerBursts('server.connected', raise, windowMs);
  const disconnected = createServerBursts('server.disconnected', raise, windowMs);

  function observe(event: BusEvent): void {
    switch (event.type) {
      case 'execution:updated': {
        const { run } = event;
        if (run.status !== 'failed') return;
        const scheduled = run.startedBy === 'schedule';
        const name = run.scriptName ?? 'Custom code';
        raise(event.userId, () => ({
          kind: scheduled ? 'schedule.failed' : 'run.failed',
          title: scheduled ? `Scheduled run of ${name} failed` : `Run of ${name} failed`,
          description: run.limitHit
            ? `The run was stopped by the sandbox's ${run.limitHit} limit after ${run.durationMs} ms.`
            : `The run failed after ${run.durationMs} ms on ${run.target}${run.serverId ? ` (${run.serverId})` : ''}.`,
          path: `/runs?run=${encodeURIComponent(run.id)}`,
          fields: [
            { name: 'Target', value: run.target },
            { name: 'Started by', value: run.startedBy },
          ],
          data: {
            runId: run.id,
            scriptId: run.scriptId,
            target: run.target,
            serverId: run.serverId,
            startedBy: run.startedBy,
          },
        }));
        return;
      }
      case 'console:lines':
        errors.note(event.userId, event.lines);
        return;
      case 'mass:finished': {
        const { batch } = event;
        // Told to the admin who started it; a batch whose starter is gone is told to nobody.
        if (!batch.initiatedBy) return;
        raise(batch.initiatedBy, () => massFinishedEvent(batch));
        return;
      }
      case 'api-key:regenerated':
        // Not 'api-key:replaced': that one also comes with a new account's first key and a revoke.
        raise(event.userId, () => ({
          kind: 'api-key.regenerated',
          title: 'API key regenerated',
          description: event.byAdmin
            ? 'An admin regenerated your personal API key: games and tools still using the old key can no longer connect. Copy the new one from Settings.'
            : 'Your personal API key was regenerated: games and tools still using the old key can no longer connect. If this was not you, sign in and regenerate it again.',
          path: '/settings',
          fields: [],
          data: {},
        }));
        return;
      case 'team:membership': {
        // Told to the team (its destinations); the team's own deletion has nobody left to tell.
        const { change } = event;
        if (change === 'deleted') return;
        const who = event.username ?? 'A member';
        const kind =
          change === 'joined'
            ? 'team.member-joined'
            : change === 'changed'
              ? 'team.member-changed'
              : 'team.member-left';
        const description = {
          joined: `${who} joined the team as ${event.role ?? 'a member'}.`,
          changed: `${who} is now ${event.role ?? 'a member'} in the team.`,
          left: `${who} left the team.`,
          removed: `${who} was removed from the team.`,
        }[change];
        raise(event.teamId, () => ({
          kind,
          title: {
            joined: 'Member joined',
            changed: 'Member role changed',
            left: 'Member left',
            removed: 'Member removed',
          }[change],
          description,
          path: '/team',
          fields: [{ name: 'Member', value: who }, ...(event.role ? [{ name: 'Role', value: event.role }] : [])],
          data: { userId: event.userId, username: event.username, role: event.role, change },
        }));
        return;
      }
      default:
        return;
    }
  }

  return {
    observe,
    /** The game link's view of a server: a ping that (re)connected it, or the sweep finding it gone. */
    serverPinged(presence: ServerPresence): void {
      // The ping that connects a server starts its connection: both times are that ping's.
      if (presence.connectedAtMs === presence.lastPingMs) connected.note(presence.userId, presence.serverId);
    },
    serverGone(presence: ServerPresence): void {
      disconnected.note(presence.userId, presence.serverId);
    },
    flush(): void {
      connected.flush();
      disconnected.flush();
      errors.flush();
    },
  };
}

const PART_OUTCOMES: [MassProgressStatus, string][] = [
  ['succeeded', 'succeeded'],
  ['failed', 'failed'],
  ['not_connected', 'not connected'],
  ['expired', 'never taken'],
];

/** "Mass execution finished": how many parts, and how they ended. */
export function massFinishedEvent(batch: MassBatchSummary): RaisedEvent {
  const total = Object.values(batch.counts).reduce((sum, count) => sum + (count ?? 0), 0);
  const outcomes = PART_OUTCOMES.filter(([status]) => batch.counts[status]);
  const what = batch.kind === 'code' ? 'Lua code' : 'a command';
  const seconds = Math.max(0, Math.round((Date.parse(batch.finishedAt) - Date.parse(batch.startedAt)) / 1000));
  return {
    kind: 'mass-execution.finished',
    title: `Mass execution finished: ${total} ${total === 1 ? 'user' : 'users'}`,
    description: `The mass execution of ${what} ended in ${seconds} seconds: ${
      outcomes.map(([status, words]) => `${batch.counts[status]} ${words}`).join(', ') || 'nothing to do'
    }.`,
    path: '/admin?tab=mass',
    fields: outcomes.map(([status, words]) => ({
      name: words[0]!.toUpperCase() + words.slice(1),
      value: String(batch.counts[status]),
    })),
    data: { batchId: batch.batchId, kind: batch.kind, counts: batch.counts, startedAt: batch.startedAt },
  };
}

import crypto from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { GAME_COMMAND_EXPIRY_MS } from '@moonrelay/contract/constants';
import type { CommandView, GameCommandType } from '@moonrelay/contract/game';
import type { Insertable } from 'kysely';
import { inTransaction, type Db } from '../../db/database.ts';
import type { GameCommandsTable } from '../../db/schema.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { createWriteBatch } from '../../db/write-batch.ts';
import type { EventBus, OpenBroadcast } from '../../platform/event-bus.ts';
import { broadcastsRepo, type BroadcastRow } from './broadcasts.repo.ts';
import { commandsRepo, type CommandRow } from './commands.repo.ts';
import { createOpenBroadcasts } from './open-broadcasts.ts';

/**
 * How long an ended broadcast and its servers' copies are kept. A key broadcasting every second to
 * 20,000 servers makes 72 million copies an hour; what stays is the outcome where a person reads it
 * (the audit entry, a mass execution's part).
 */
export const BROADCAST_RETENTION_MS = 60 * 60 * 1000;
/** Broadcasts removed per sweep, each its own statement (one may take 20,000 copies with it). */
const REMOVED_PER_SWEEP = 20;

/** How often a broadcast's totals are told while its servers take and answer it. */
const PROGRESS_INTERVAL_MS = 250;

/** A broadcast as screens and mass-execution progress see it: a command with its totals. */
export function toBroadcastView(row: BroadcastRow): CommandView {
  const answered = row.succeeded + row.failed;
  const over = row.endedAt !== null || (row.servers > 0 && answered >= row.servers);
  const status: CommandView['status'] = over
    ? row.failed > 0
      ? 'failed'
      : row.succeeded > 0
        ? 'succeeded'
        : 'expired'
    : row.taken > 0
      ? 'delivered'
      : 'queued';
  return {
    id: row.id,
    userId: row.userId,
    serverId: null,
    type: row.type as GameCommandType,
    status,
    source: row.source as CommandView['source'],
    executionId: null,
    attempts: row.taken,
    output: over ? `Succeeded on ${row.succeeded} of ${row.servers} game servers` : null,
    error: over && row.failed > 0 ? failure(row) : null,
    durationMs: null,
    createdAt: row.createdAt,
    deliveredAt: null,
    completedAt: row.endedAt,
    broadcast: { servers: row.servers, taken: row.taken, succeeded: row.succeeded, failed: row.failed },
  };
}

/** For one server, the game's own error; for a fleet, how many failed and the first one's words. */
function failure(row: BroadcastRow): string {
  const first = row.firstError ?? 'The command failed';
  return row.servers === 1 ? first : `Failed on ${row.failed} of ${row.servers} game servers. First error: ${first}`;
}

const toOpen = (row: BroadcastRow): OpenBroadcast => ({
  id: row.id,
  userId: row.userId,
  type: row.type,
  data: row.data,
  source: row.source,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

interface TakeRequest {
  userId: string;
  serverId: string;
  broadcasts: OpenBroadcast[];
}

/**
 * Commands to every live game server of a user, stored once (decision 043). Sending one is one row
 * and one bus message, whatever the number of servers. Each server takes it on its next ping (a
 * held long-poll wakes at once): the servers yet to take it are known from memory
 * (./open-broadcasts.ts), and the copies taken within a few milliseconds are written together,
 * with the broadcast's totals, in one transaction. From then on a copy is a command of that server's
 * own: leased, delivered again when the lease passes, completed once. The totals reach screens and
 * mass-execution progress a few times a second, not once per server.
 */
export function createBroadcasts(deps: {
  db: Db;
  bus: EventBus;
  leaseMs: number;
  onMoved?: (commands: CommandView[]) => Promise<void>;
}) {
  const { db, bus } = deps;
  const open = createOpenBroadcasts();
  bus.subscribe((event) => {
    if (event.type === 'command:broadcast') open.add(event.broadcast);
  });

  const copies = createWriteBatch<TakeRequest, CommandRow[]>((requests) =>
    inTransaction(db, async (trx) => {
      const now = nowIso();
      const leaseUntil = isoPlus(now, deps.leaseMs);
      const rows: Insertable<GameCommandsTable>[] = requests.flatMap(({ userId, serverId, broadcasts }) =>
        broadcasts.map((broadcast) => ({
          id: crypto.randomUUID(),
          userId,
          serverId,
          type: broadcast.type,
          data: broadcast.data,
          status: 'delivered',
          source: broadcast.source,
          executionId: null,
          attempts: 1,
          leaseUntil,
          output: null,
          error: null,
          durationMs: null,
          // The broadcast's times: copies sort and expire with it.
          createdAt: broadcast.createdAt,
          expiresAt: broadcast.expiresAt,
          deliveredAt: now,
          completedAt: null,
          broadcastId: broadcast.id,
        })),
      );
      const made = await broadcastsRepo.insertCopies(trx, rows);
      const taken = new Map<string, number>();
      for (const row of made) taken.set(row.broadcastId!, (taken.get(row.broadcastId!) ?? 0) + 1);
      for (const [id, count] of taken) await broadcastsRepo.count(trx, id, { taken: count });
      // Each copy to one of the pings that asked for it: two pings of one server in one batch both
      // asked, and the first gets it (the other, nothing: it is that server's once).
      const copyOf = new Map(made.map((row) => [`${row.broadcastId}\n${row.userId}\n${row.serverId}`, row]));
      return requests.map(({ userId, serverId, broadcasts }) =>
        broadcasts.flatMap((broadcast) => {
          const key = `${broadcast.id}\n${userId}\n${serverId}`;
          const row = copyOf.get(key);
          if (!row) return [];
          copyOf.delete(key);
          return [row];
        }),
      );
    }),
  );

  // Broadcasts whose totals moved since they were last told.
  const dirty = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function tell(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await broadcastsRepo.find(db, ids);
    // Answered by every server: ended now (the guard lets one process do it), so it is told as over.
    const answered = rows.filter((row) => row.endedAt === null && row.succeeded + row.failed >= row.servers);
    const ended = answered.length
      ? await broadcastsRepo.end(
          db,
          nowIso(),
          answered.map((row) => row.id),
        )
      : [];
    const endedById = new Map(ended.map((row) => [row.id, row]));
    const views = rows.map((row) => toBroadcastView(endedById.get(row.id) ?? row));
    await deps.onMoved?.(views);
    for (const view of views) bus.publish({ type: 'command:update', command: view });
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const ids = [...dirty];
    dirty.clear();
    flushing = flushing
      .then(() => tell(ids))
      // The database was away: told with the next change or tick instead.
      .catch(() => changed(ids));
    return flushing;
  }

  return {
    async send(
      userId: string,
      type: GameCommandType,
      data: Record<string, unknown>,
      options: { source: CommandView['source']; servers: number; id?: string },
    ): Promise<BroadcastRow> {
      const createdAt = nowIso();
      const row: BroadcastRow = {
        id: options.id ?? crypto.randomUUID(),
        userId,
        type,
        data: JSON.stringify(data),
        source: options.source,
        servers: options.servers,
        taken: 0,
        succeeded: 0,
        failed: 0,
        firstError: null,
        createdAt,
        expiresAt: isoPlus(createdAt, GAME_COMMAND_EXPIRY_MS),
        endedAt: null,
      };
      await broadcastsRepo.insert(db, row);
      const view = toBroadcastView(row);
      await deps.onMoved?.([view]);
      open.add(toOpen(row));
      bus.publish({ type: 'command:update', command: view });
      // Tells the other instances, and wakes every held long-poll of the user once.
      bus.publish({ type: 'command:broadcast', broadcast: toOpen(row) });
      return row;
    },

    /** The copies this server takes now (none: nothing open for it, the usual answer, from memory). */
    async take(userId: string, serverId: string, connectedAtMs: number, limit: number): Promise<CommandRow[]> {
      if (!open.has(userId)) return [];
      const nowMs = Date.now();
      const due = open.due(userId, serverId, connectedAtMs, nowMs, limit);
      if (due.length === 0) return [];
      const made = await copies.add({ userId, serverId, broadcasts: due });
      // Taken now, or by an earlier ping (another instance): either way, not offered again here.
      open.taken(userId, serverId, connectedAtMs, nowMs, due);
      changed(made.map((row) => row.broadcastId!));
      return made;
    },

    changed,

    /** Delivered commands unanswered past their time fail; a broadcast's count them in its totals. */
    failUnanswered(now: string, error: string): Promise<CommandRow[]> {
      return inTransaction(db, async (trx) => {
        const rows = await commandsRepo.failUnanswered(trx, now, error);
        const failed = new Map<string, number>();
        for (const row of rows)
          if (row.broadcastId) failed.set(row.broadcastId, (failed.get(row.broadcastId) ?? 0) + 1);
        for (const [id, count] of failed) await broadcastsRepo.count(trx, id, { failed: count, error });
        return rows;
      });
    },

    /** Ends the broadcasts past their time (and any answered by all whose end was not told), and tells. */
    async endDue(now: string): Promise<void> {
      const ended = await broadcastsRepo.end(db, now);
      if (ended.length === 0) return;
      const views = ended.map(toBroadcastView);
      await deps.onMoved?.(views);
      for (const view of views) bus.publish({ type: 'command:update', command: view });
    },

    /** Removes broadcasts ended longer ago than the retention, with their copies; answers how many. */
    async prune(nowMs = Date.now()): Promise<number> {
      const ids = await broadcastsRepo.endedBefore(
        db,
        new Date(nowMs - BROADCAST_RETENTION_MS).toISOString(),
        REMOVED_PER_SWEEP,
      );
      for (const id of ids) {
        await broadcastsRepo.remove(db, id);
        // SQLite deletes synchronously: requests get the event loop between two broadcasts.
        await yieldToEventLoop();
      }
      return ids.length;
    },

    async refresh(): Promise<void> {
      const nowMs = Date.now();
      open.refresh((await broadcastsRepo.open(db, new Date(nowMs).toISOString())).map(toOpen), nowMs);
    },

    async find(userId: string, id: string): Promise<CommandView | undefined> {
      const row = await broadcastsRepo.findForUser(db, userId, id);
      return row ? toBroadcastView(row) : undefined;
    },

    flush,

    get memory() {
      return open.size;
    },

    close(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };

  function changed(ids: string[]): void {
    for (const id of ids) dirty.add(id);
    if (dirty.size === 0 || timer !== undefined) return;
    timer = setTimeout(() => void flush(), PROGRESS_INTERVAL_MS);
    timer.unref?.();
  }
}

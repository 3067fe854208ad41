import type { RosterPlayer, RosterReport } from '@moonrelay/contract/players';
import { inTransaction, type Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { playersRepo } from './players.repo.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const DAY_MS = 24 * 60 * 60 * 1000;
const ANNOUNCE_MS = 1_000;
/** Owners per lookup of servers with players (well inside both engines' parameter limits). */
const OWNERS_PER_QUERY = 500;

/** How often open sessions of servers that went unseen are ended, and old sessions pruned. */
export const ROSTER_SWEEP_MS = 60_000;
/**
 * After a start, servers get this long to ping again before their players count as gone: a restart
 * forgets who was live (the embedded mode keeps presence in memory), not who was playing.
 */
const START_GRACE_MS = 60_000;

/**
 * The rosters the game servers report on their pings, kept as player records and sessions
 * (docs/protocol.md, "Roster"). The database is the one place they live, so every instance of the
 * scale-out mode sees the same players online, and a restart loses nobody.
 *
 * A report is applied in one transaction. Joins open a session unless one is open (the partial
 * unique index makes a join reported twice a no-op, also when two pings of one server arrive at
 * once); leaves end it and add the stay to the player's play time; a whole roster ends the sessions
 * of players no longer in it. A server that stops pinging ends its players' sessions at its last
 * ping.
 */
export function createRoster(deps: {
  db: Db;
  logger: Pick<Logger, 'warn' | 'info'>;
  sessionRetentionDays: number;
  /** Where `players:changed` goes (the owner's screens); none in tools that only read. */
  bus?: EventBus;
  /** Whether the owner's server pinged within the connection window (presence). */
  isLive(userId: string, serverId: string): Promise<boolean>;
  now?: () => number;
}) {
  const { db, logger } = deps;
  const now = deps.now ?? Date.now;
  const startedAt = now();

  // Screens hear of changes once a second per user at most: a fleet's joins are one event, not one each.
  const changedUsers = new Set<string>();
  let announceTimer: NodeJS.Timeout | undefined;
  function changed(userId: string): void {
    if (!deps.bus) return;
    changedUsers.add(userId);
    announceTimer ??= setTimeout(() => {
      announceTimer = undefined;
      for (const user of changedUsers) deps.bus!.publish({ type: 'players:changed', userId: user });
      changedUsers.clear();
    }, ANNOUNCE_MS);
    announceTimer.unref();
  }

  async function apply(userId: string, serverId: string, report: RosterReport, atMs: number): Promise<void> {
    const at = iso(atMs);
    const arrivals = new Map<string, RosterPlayer>();
    const departures = new Set<string>();
    await inTransaction(db, async (trx) => {
      if (report.players) {
        const present = new Set(report.players.map((player) => String(player.userId)));
        for (const id of await playersRepo.openOnServer(trx, userId, serverId)) {
          if (!present.has(id)) departures.add(id);
        }
        for (const player of report.players) arrivals.set(String(player.userId), player);
      }
      for (const player of report.joined ?? []) {
        arrivals.set(String(player.userId), player);
        departures.delete(String(player.userId));
      }
      for (const id of report.left ?? []) {
        departures.add(String(id));
        arrivals.delete(String(id));
      }
      // In id order: two pings at once lock the same rows in the same order (no deadlock).
      const joining = [...arrivals.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
      await playersRepo.upsertPlayers(
        trx,
        userId,
        joining.map(([, player]) => player),
        at,
      );
      const opened = await playersRepo.openSessions(
        trx,
        userId,
        serverId,
        joining.map(([id]) => id),
        at,
      );
      const left = await playersRepo.closeSessions(trx, userId, serverId, [...departures].sort(), at);
      if (opened.length > 0 || left > 0) changed(userId);
    });
  }

  /** The server stopped pinging: everyone on it left at its last ping. */
  async function serverGone(userId: string, serverId: string, lastPingMs: number): Promise<number> {
    const ended = await inTransaction(db, (trx) =>
      playersRepo.closeSessions(trx, userId, serverId, 'all', iso(lastPingMs)),
    );
    if (ended > 0) changed(userId);
    return ended;
  }

  /**
   * Servers the disconnect sweep found gone: one query finds which of them had players (a fleet
   * stopping is thousands of servers, most with no roster), and only those are ended.
   */
  async function serversGone(gone: { userId: string; serverId: string; lastPingMs: number }[]): Promise<number> {
    const owners = [...new Set(gone.map((entry) => entry.userId))];
    const withPlayers = new Set<string>();
    for (let start = 0; start < owners.length; start += OWNERS_PER_QUERY) {
      const open = await playersRepo.serversWithOpenSessions(db, owners.slice(start, start + OWNERS_PER_QUERY));
      for (const { userId, serverId } of open) withPlayers.add(`${userId}\n${serverId}`);
    }
    let ended = 0;
    for (const entry of gone) {
      if (withPlayers.has(`${entry.userId}\n${entry.serverId}`)) {
        ended += await serverGone(entry.userId, entry.serverId, entry.lastPingMs);
      }
    }
    return ended;
  }

  /**
   * Ends the sessions of servers that are not live (their going was missed: the process stopped, or
   * presence was lost with Redis) and prunes sessions past the retention. Runs every minute.
   */
  async function sweep(): Promise<{ ended: number; pruned: number }> {
    const nowMs = now();
    let ended = 0;
    if (nowMs - startedAt >= START_GRACE_MS) {
      for (const { userId, serverId } of await playersRepo.serversWithOpenSessions(db)) {
        if (await deps.isLive(userId, serverId)) continue;
        ended += await serverGone(userId, serverId, nowMs);
      }
    }
    const pruned = await playersRepo.pruneSessions(db, iso(nowMs - deps.sessionRetentionDays * DAY_MS));
    if (ended > 0 || pruned > 0) logger.info({ ended, pruned }, 'player sessions swept');
    return { ended, pruned };
  }

  return { apply, serverGone, serversGone, sweep };
}

export type Roster = ReturnType<typeof createRoster>;

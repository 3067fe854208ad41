import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ROSTER_MAX_PLAYERS } from '@moonrelay/contract/constants';
import type { RosterPlayer, RosterReport } from '@moonrelay/contract/players';
import { inTransaction, type Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { playersRepo } from './players.repo.ts';
import { rosterWrites, type PlayerWrite, type PruneCursor } from './roster-writes.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const DAY_MS = 24 * 60 * 60 * 1000;
const ANNOUNCE_MS = 1_000;
/** Owners per lookup of servers with players (well inside both engines' parameter limits). */
const OWNERS_PER_QUERY = 500;

/**
 * Players per batch of reports: a batch holds SQLite's one writer (and the event loop, its
 * statements being synchronous) while it runs, so it is kept to a few milliseconds of work.
 */
const MAX_BATCH_PLAYERS = 4_000;
/** Servers whose sessions one statement ends (a sweep after a restart can find thousands). */
const SERVERS_PER_END = 500;
/** Player records one pruning transaction looks at (and deletes at most). */
const PRUNE_BATCH = 500;
/** A game server's console hears of each kind of refusal at most once in this long. */
export const ROSTER_NOTICE_INTERVAL_MS = 10 * 60_000;

/** What became of a report's players that were not taken (docs/protocol.md, "Roster"). */
export interface RosterOutcome {
  /** Joins not opened: the server already had ROSTER_MAX_PLAYERS open sessions. */
  dropped: number;
  /** New players not recorded (no record, no session): the owner has PLAYER_RECORDS_MAX records. */
  notRecorded: number;
  /** Each refusal in words, naming the limit (also when the console was not told again). */
  notices: string[];
}

interface Pending {
  userId: string;
  serverId: string;
  report: RosterReport;
  at: string;
  atMs: number;
  /** Filled while its batch is written; reset when the batch is tried again. */
  outcome: { dropped: number; notRecorded: number };
  resolve(outcome: RosterOutcome): void;
  reject(error: unknown): void;
}

const serverKey = (owner: string, serverId: string) => `${owner}\n${serverId}`;
const playerKey = (owner: string, robloxUserId: string) => `${owner}\n${robloxUserId}`;
const reportSize = (report: RosterReport) =>
  (report.players?.length ?? 0) + (report.joined?.length ?? 0) + (report.left?.length ?? 0);

/** The oldest waiting reports, up to `maxPlayers` players (always at least one report). */
function takeBatch(queue: Pending[], maxPlayers: number): Pending[] {
  let players = reportSize(queue[0]!.report);
  let count = 1;
  while (count < queue.length && players + reportSize(queue[count]!.report) <= maxPlayers) {
    players += reportSize(queue[count]!.report);
    count += 1;
  }
  return queue.splice(0, count);
}

/**
 * A batch in rounds: each server's first report in the first round, its second in the next, and so
 * on, so one server's reports are applied in the order they came, each round set-based.
 */
function rounds(batch: Pending[]): Pending[][] {
  const seen = new Map<string, number>();
  const result: Pending[][] = [];
  for (const item of batch) {
    const key = serverKey(item.userId, item.serverId);
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    (result[index] ??= []).push(item);
  }
  return result;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The refusals in a game developer's words, each naming its limit. */
const droppedJoins = (count: number) =>
  `${plural(count, 'join was', 'joins were')} dropped: Moonrelay already has ${ROSTER_MAX_PLAYERS} players online ` +
  `on this server, the most a Roblox server holds (ROSTER_MAX_PLAYERS). Joins past it are not recorded; ` +
  `the next whole roster sets this server's players afresh. Said at most every 10 minutes per server.`;
const notRecordedPlayers = (count: number, max: number, keepDays: number) =>
  `Players are no longer being recorded: this account has reached PLAYER_RECORDS_MAX ` +
  `(${max.toLocaleString('en-US')} player records), so ${plural(count, 'new player was', 'new players were')} ` +
  `not recorded nor shown online. Players recorded before are still followed. Room comes back as records ` +
  `of players unseen for PLAYER_RECORDS_KEEP_DAYS (${keepDays} days) are pruned, or when the server's ` +
  `operator raises PLAYER_RECORDS_MAX. Said at most every 10 minutes per server.`;

/** By owner, then server id: the order servers are held in. */
function byServer(a: { owner: string; serverId: string }, b: { owner: string; serverId: string }): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1;
  return a.serverId < b.serverId ? -1 : a.serverId > b.serverId ? 1 : 0;
}

/** By owner, then player id: the order rows are written (and locked) in. */
function byPlayer(a: { owner: string; robloxUserId: string }, b: { owner: string; robloxUserId: string }): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1;
  return a.robloxUserId < b.robloxUserId ? -1 : a.robloxUserId > b.robloxUserId ? 1 : 0;
}

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
 * Reports are applied in batches, each in one transaction (decision 039). Joins open a session
 * unless one is open (the partial unique index makes a join reported twice a no-op, also when two
 * pings of one server arrive at once); leaves end it and add the stay to the player's play time; a
 * whole roster ends the sessions of players no longer in it. A player's record is written only when
 * they are new, their names or account age changed, or a session of theirs was opened. A server that stops pinging ends its players' sessions at its last
 * ping.
 *
 * Limits (decision 036, "Limits"): a server holds at most ROSTER_MAX_PLAYERS open sessions and an
 * owner at most `recordsMax` player records; what a report brings past them is not taken, said in
 * its outcome and, at most every ROSTER_NOTICE_INTERVAL_MS per server, in the game's console.
 * Records of players unseen for `recordsKeepDays` are pruned by the minutely sweep.
 */
export function createRoster(deps: {
  db: Db;
  logger: Pick<Logger, 'warn' | 'info'>;
  sessionRetentionDays: number;
  /** Player records an owner may have (PLAYER_RECORDS_MAX); new players past it are not recorded. */
  recordsMax: number;
  /** Days a player may go unseen before their record is pruned (PLAYER_RECORDS_KEEP_DAYS). */
  recordsKeepDays: number;
  /** Writes one line of Moonrelay's into a game server's console (the console service's `notice`). */
  notice?(userId: string, serverId: string, text: string, atMs: number): void;
  /** Where `players:changed` goes (the owner's screens); none in tools that only read. */
  bus?: EventBus;
  /** Whether the owner's server pinged within the connection window (presence). */
  isLive(userId: string, serverId: string): Promise<boolean>;
  now?: () => number;
  /** Players (whole rosters and changes) per batch at most; a single larger report goes alone. */
  maxBatchPlayers?: number;
}) {
  const { db, logger } = deps;
  // Read at each call, not captured: a clock set for the whole process (tests fake Date) reaches it.
  const now = deps.now ?? (() => Date.now());
  const startedAt = now();
  const maxBatchPlayers = deps.maxBatchPlayers ?? MAX_BATCH_PLAYERS;
  const { recordsMax, recordsKeepDays } = deps;

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

  /** Reports waiting for the next batch, in arrival order. */
  const queue: Pending[] = [];
  let draining = false;
  const stats = { batches: 0, reports: 0 };

  /**
   * Applies a report. Reports that arrive while a batch is being written wait and go together in the
   * next one (one transaction, a few set-based statements for all of them), so a restart storm costs
   * a commit per batch instead of per ping. The promise settles when its batch is committed (or has
   * failed): a ping is answered only once its roster is stored, and the game sends the changes of a
   * ping that failed again with its next one, so a crash between batches loses nothing. It answers
   * what the limits kept out of the report.
   */
  function apply(userId: string, serverId: string, report: RosterReport, atMs: number): Promise<RosterOutcome> {
    return new Promise<RosterOutcome>((resolve, reject) => {
      const outcome = { dropped: 0, notRecorded: 0 };
      queue.push({ userId, serverId, report, at: iso(atMs), atMs, outcome, resolve, reject });
      if (!draining) {
        draining = true;
        // After the pings already read this turn of the event loop, so they join the first batch.
        setImmediate(() => void drain());
      }
    });
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = takeBatch(queue, maxBatchPlayers);
        stats.batches += 1;
        stats.reports += batch.length;
        try {
          await writeBatch(batch);
          for (const item of batch) settle(item);
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          // One report can sink the batch (its owner was deleted meanwhile, a deadlock with another
          // instance): each is tried on its own, and only those failing again fail their ping.
          for (const item of batch) {
            try {
              await writeBatch([item]);
              settle(item);
            } catch (itemError) {
              item.reject(itemError);
            }
          }
        }
      }
    } finally {
      draining = false;
    }
  }

  // When each game server's console was last told of a refusal, by owner, server and kind.
  const noticed = new Map<string, number>();

  /** Answers a stored report with what was refused of it, and tells the game's console (rarely). */
  function settle(item: Pending): void {
    const { dropped, notRecorded } = item.outcome;
    const notices: string[] = [];
    const tell = (kind: string, text: string) => {
      notices.push(text);
      const key = `${item.userId}\n${item.serverId}\n${kind}`;
      const last = noticed.get(key);
      if (last !== undefined && item.atMs - last < ROSTER_NOTICE_INTERVAL_MS && item.atMs >= last) return;
      noticed.set(key, item.atMs);
      logger.warn({ userId: item.userId, serverId: item.serverId, dropped, notRecorded }, `roster refused: ${kind}`);
      try {
        deps.notice?.(item.userId, item.serverId, text, item.atMs);
      } catch (error) {
        logger.warn({ err: error }, 'roster notice not written');
      }
    };
    if (dropped > 0) tell('server full', droppedJoins(dropped));
    if (notRecorded > 0) tell('records full', notRecordedPlayers(notRecorded, recordsMax, recordsKeepDays));
    item.resolve({ dropped, notRecorded, notices });
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    for (const item of batch) item.outcome = { dropped: 0, notRecorded: 0 };
    const touched = await inTransaction(db, async (trx) => {
      const owners = new Set<string>();
      for (const round of rounds(batch)) {
        for (const owner of await applyRound(trx, round)) owners.add(owner);
      }
      return owners;
    });
    for (const owner of touched) changed(owner);
  }

  /**
   * Applies one report per server at most; answers the owners whose players changed.
   *
   * The limits (decision 036, "Limits"): a server holds at most ROSTER_MAX_PLAYERS open sessions,
   * so joins that would pass it are dropped, in the report's order (the players already on the
   * server stay); an owner holds at most `recordsMax` player records, so a player new to them is
   * not recorded (nor put online) once it is reached, while players recorded before are followed
   * as ever. On PostgreSQL the round holds its servers (advisory locks) and the counts of owners
   * with new players (row locks) until the commit, so instances cannot both take the last room.
   * Locks go servers, then counts, then players' rows, each in key order, in every transaction
   * that takes them (the pruning takes counts, then players).
   */
  async function applyRound(trx: Db, round: Pending[]): Promise<string[]> {
    const bringing = round.filter((item) => item.report.players || item.report.joined?.length);
    await rosterWrites.lockServers(
      trx,
      bringing.map((item) => ({ owner: item.userId, serverId: item.serverId })).sort(byServer),
    );

    const openNow = new Map<string, Set<string>>();
    const whole = round.filter((item) => item.report.players);
    for (const open of await rosterWrites.openOn(
      trx,
      whole.map((item) => ({ owner: item.userId, serverId: item.serverId })),
    )) {
      const key = serverKey(open.owner, open.serverId);
      const ids = openNow.get(key) ?? new Set<string>();
      ids.add(open.robloxUserId);
      openNow.set(key, ids);
    }

    type Arrival = { item: Pending; player: RosterPlayer; id: string; alreadyOpen: boolean };
    const arrivals: Arrival[] = [];
    const departures: { owner: string; serverId: string; robloxUserId: string; at: string }[] = [];
    for (const item of round) {
      const { report } = item;
      const open = openNow.get(serverKey(item.userId, item.serverId)) ?? new Set<string>();
      const coming = new Map<string, RosterPlayer>();
      const going = new Set<string>();
      if (report.players) {
        const present = new Set(report.players.map((player) => String(player.userId)));
        for (const id of open) if (!present.has(id)) going.add(id);
        for (const player of report.players) coming.set(String(player.userId), player);
      }
      for (const player of report.joined ?? []) {
        coming.set(String(player.userId), player);
        going.delete(String(player.userId));
      }
      for (const id of report.left ?? []) {
        going.add(String(id));
        coming.delete(String(id));
      }
      for (const [id, player] of coming) arrivals.push({ item, player, id, alreadyOpen: open.has(id) });
      for (const id of going) {
        departures.push({ owner: item.userId, serverId: item.serverId, robloxUserId: id, at: item.at });
      }
    }

    // The arriving players' records; the counts of owners with someone new, held from here on.
    const stored = new Map<string, { name: string; displayName: string | null; accountAgeDays: number | null }>();
    const readStored = async (ids: { owner: string; robloxUserId: string }[]) => {
      for (const row of await rosterWrites.players(trx, ids.sort(byPlayer))) {
        stored.set(playerKey(row.owner, row.robloxUserId), row);
      }
    };
    const arriving = new Map<string, { owner: string; robloxUserId: string }>();
    for (const arrival of arrivals) {
      arriving.set(playerKey(arrival.item.userId, arrival.id), {
        owner: arrival.item.userId,
        robloxUserId: arrival.id,
      });
    }
    await readStored([...arriving.values()]);
    const unknown = [...arriving].filter(([key]) => !stored.has(key)).map(([, id]) => id);
    const records = await rosterWrites.recordCounts(
      trx,
      unknown.map((id) => id.owner),
    );
    // Another instance may have recorded some of them while this one waited for the counts.
    if (unknown.length > 0 && !rosterWrites.isSqlite(trx)) await readStored(unknown);

    const ended = await rosterWrites.endSessions(trx, departures.sort(byPlayer));
    await rosterWrites.addStays(trx, ended);

    // Room on each server that had joins, now that this round's leaves are out. A whole roster
    // alone needs no count: it ends everyone not in it and holds at most ROSTER_MAX_PLAYERS itself.
    const joining = round.filter((item) => item.report.joined?.length);
    const openCount = await rosterWrites.openCounts(
      trx,
      joining.map((item) => ({ owner: item.userId, serverId: item.serverId })),
    );
    const alsoOpen = new Set(
      (
        await rosterWrites.openAmong(
          trx,
          arrivals
            .filter((arrival) => !arrival.alreadyOpen && !arrival.item.report.players)
            .map((arrival) => ({
              owner: arrival.item.userId,
              serverId: arrival.item.serverId,
              robloxUserId: arrival.id,
            })),
        )
      ).map((open) => `${serverKey(open.owner, open.serverId)}\n${open.robloxUserId}`),
    );
    const room = new Map<string, number>();
    for (const [owner, count] of records) room.set(owner, recordsMax - count);
    const slots = new Map<Pending, number>();
    for (const item of round) {
      const open = openCount.get(serverKey(item.userId, item.serverId)) ?? 0;
      slots.set(item, item.report.joined?.length ? ROSTER_MAX_PLAYERS - open : Infinity);
    }
    const admittedNew = new Set<string>();
    const taken: Arrival[] = [];
    // Arrivals are in the order of the round's reports, each report's players in its own order.
    for (const arrival of arrivals) {
      const { item } = arrival;
      if (arrival.alreadyOpen || alsoOpen.has(`${serverKey(item.userId, item.serverId)}\n${arrival.id}`)) {
        taken.push({ ...arrival, alreadyOpen: true });
        continue;
      }
      const free = slots.get(item)!;
      if (free <= 0) {
        item.outcome.dropped += 1;
        continue;
      }
      const key = playerKey(item.userId, arrival.id);
      if (!stored.has(key) && !admittedNew.has(key)) {
        const left = room.get(item.userId) ?? 0;
        if (left <= 0) {
          item.outcome.notRecorded += 1;
          continue;
        }
        room.set(item.userId, left - 1);
        admittedNew.add(key);
      }
      slots.set(item, free - 1);
      taken.push(arrival);
    }

    const opened = await rosterWrites.openSessions(
      trx,
      taken
        .filter((arrival) => !arrival.alreadyOpen)
        .map((arrival) => ({
          owner: arrival.item.userId,
          serverId: arrival.item.serverId,
          robloxUserId: arrival.id,
          at: arrival.item.at,
        }))
        .sort(byPlayer),
    );
    const openedPer = new Map<string, number>();
    for (const session of opened) {
      const key = playerKey(session.owner, session.robloxUserId);
      openedPer.set(key, (openedPer.get(key) ?? 0) + 1);
    }

    // Records are written only when new, changed, or a session opened; a player's last report wins.
    const latest = new Map<string, { item: Pending; player: RosterPlayer; id: string }>();
    for (const arrival of taken) latest.set(playerKey(arrival.item.userId, arrival.id), arrival);
    const writes: PlayerWrite[] = [];
    const newNames: PlayerWrite[] = [];
    for (const [key, { item, player, id }] of latest) {
      const before = stored.get(key);
      const write: PlayerWrite = {
        owner: item.userId,
        robloxUserId: id,
        name: player.name,
        displayName: player.displayName ?? null,
        accountAgeDays: player.accountAgeDays ?? null,
        at: item.at,
        opened: openedPer.get(key) ?? 0,
        created: !before,
      };
      const renamed = !before || before.name !== write.name || before.displayName !== write.displayName;
      const aged = write.accountAgeDays !== null && before?.accountAgeDays !== write.accountAgeDays;
      if (renamed) newNames.push(write);
      if (renamed || aged || write.opened > 0) writes.push(write);
    }
    await rosterWrites.addRecords(trx, await rosterWrites.writePlayers(trx, writes, newNames));

    return [...new Set([...opened, ...ended].map((session) => session.owner))];
  }

  /** Everyone still on these servers left at the given times (their last pings). */
  async function endServers(servers: { userId: string; serverId: string; atMs: number }[]): Promise<number> {
    if (servers.length === 0) return 0;
    const ends = servers
      .map((s) => ({ owner: s.userId, serverId: s.serverId, robloxUserId: null, at: iso(s.atMs) }))
      .sort((a, b) => (a.owner !== b.owner ? (a.owner < b.owner ? -1 : 1) : a.serverId < b.serverId ? -1 : 1));
    const ended = await inTransaction(db, async (trx) => {
      const sessions = await rosterWrites.endSessions(trx, ends);
      await rosterWrites.addStays(trx, sessions);
      return sessions;
    });
    for (const owner of new Set(ended.map((session) => session.owner))) changed(owner);
    return ended.length;
  }

  /** The server stopped pinging: everyone on it left at its last ping. */
  function serverGone(userId: string, serverId: string, lastPingMs: number): Promise<number> {
    return endServers([{ userId, serverId, atMs: lastPingMs }]);
  }

  /**
   * Servers the disconnect sweep found gone: one query finds which of them had players (a fleet
   * stopping is thousands of servers, most with no roster), and those are ended together.
   */
  async function serversGone(gone: { userId: string; serverId: string; lastPingMs: number }[]): Promise<number> {
    const owners = [...new Set(gone.map((entry) => entry.userId))];
    const withPlayers = new Set<string>();
    for (let start = 0; start < owners.length; start += OWNERS_PER_QUERY) {
      const open = await playersRepo.serversWithOpenSessions(db, owners.slice(start, start + OWNERS_PER_QUERY));
      for (const { userId, serverId } of open) withPlayers.add(serverKey(userId, serverId));
    }
    const ending = gone
      .filter((entry) => withPlayers.has(serverKey(entry.userId, entry.serverId)))
      .map((entry) => ({ userId: entry.userId, serverId: entry.serverId, atMs: entry.lastPingMs }));
    let ended = 0;
    for (let start = 0; start < ending.length; start += SERVERS_PER_END) {
      ended += await endServers(ending.slice(start, start + SERVERS_PER_END));
    }
    return ended;
  }

  /**
   * Deletes the records of players not seen for `recordsKeepDays` (with their names and sessions),
   * a batch to a transaction from the longest unseen, the event loop free between batches. Players
   * online, with a moderation history or with a ban in force on Roblox stay (moderation acts on a
   * record, and its history is kept for good). Every instance runs it; batches that meet delete
   * what the rule says once, and the counts follow what was deleted. Answers how many went.
   */
  async function pruneRecords(nowMs: number, batchSize = PRUNE_BATCH): Promise<number> {
    const before = iso(nowMs - recordsKeepDays * DAY_MS);
    let after: PruneCursor | undefined;
    let pruned = 0;
    for (;;) {
      const candidates = await rosterWrites.unseenSince(db, before, after, batchSize);
      if (candidates.length > 0) {
        pruned += await inTransaction(db, (trx) => rosterWrites.pruneRecords(trx, candidates, before));
      }
      if (candidates.length < batchSize) return pruned;
      after = candidates.at(-1);
      await yieldToEventLoop();
    }
  }

  /**
   * Ends the sessions of servers that are not live (their going was missed: the process stopped, or
   * presence was lost with Redis), prunes sessions past the retention and records of players unseen
   * past theirs. Runs every minute.
   */
  async function sweep(): Promise<{ ended: number; pruned: number; prunedPlayers: number }> {
    const nowMs = now();
    let ended = 0;
    if (nowMs - startedAt >= START_GRACE_MS) {
      const missing: { userId: string; serverId: string; atMs: number }[] = [];
      for (const { userId, serverId } of await playersRepo.serversWithOpenSessions(db)) {
        if (!(await deps.isLive(userId, serverId))) missing.push({ userId, serverId, atMs: nowMs });
      }
      for (let start = 0; start < missing.length; start += SERVERS_PER_END) {
        ended += await endServers(missing.slice(start, start + SERVERS_PER_END));
      }
    }
    const pruned = await playersRepo.pruneSessions(db, iso(nowMs - deps.sessionRetentionDays * DAY_MS));
    const prunedPlayers = await pruneRecords(nowMs);
    for (const [key, at] of noticed) if (Math.abs(nowMs - at) >= ROSTER_NOTICE_INTERVAL_MS) noticed.delete(key);
    if (ended > 0 || pruned > 0 || prunedPlayers > 0) {
      logger.info({ ended, pruned, prunedPlayers }, 'player sessions swept');
    }
    return { ended, pruned, prunedPlayers };
  }

  return { apply, serverGone, serversGone, sweep, pruneRecords, stats: () => ({ ...stats }) };
}

export type Roster = ReturnType<typeof createRoster>;

import type { OpenBroadcast } from '../../platform/event-bus.ts';

interface Entry extends OpenBroadcast {
  createdAtMs: number;
  expiresAtMs: number;
  /** The order this instance learnt of it in: a server's mark is the last one it took. */
  seq: number;
}

const byCreation = (a: Entry, b: Entry) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

/**
 * Which broadcasts each game server has yet to take, answered from memory so that a ping costs
 * nothing more when a key broadcasts to 20,000 servers. A broadcast is for the servers connected
 * when it was sent (connected at or before its creation), so a server that joins later does not
 * take an older one. Each server's mark is the last broadcast it took through this instance, in the
 * order this instance learnt of them (not their creation times: one sent through another instance
 * whose clock is a little behind must not hide behind a mark). A server without a mark (it pinged
 * another instance, or this one restarted) is offered every open broadcast it may take, and the
 * database's unique copy per server keeps it from taking one twice.
 */
export function createOpenBroadcasts() {
  const byUser = new Map<string, Entry[]>();
  const ids = new Set<string>();
  // Per user, per server: the seq of the last broadcast taken.
  const marks = new Map<string, Map<string, number>>();
  let nextSeq = 1;

  function setMark(userId: string, serverId: string, seq: number): void {
    let servers = marks.get(userId);
    if (!servers) marks.set(userId, (servers = new Map()));
    if ((servers.get(serverId) ?? 0) < seq) servers.set(serverId, seq);
  }

  function add(broadcast: OpenBroadcast): void {
    if (ids.has(broadcast.id)) return;
    ids.add(broadcast.id);
    let list = byUser.get(broadcast.userId);
    if (!list) byUser.set(broadcast.userId, (list = []));
    list.push({
      ...broadcast,
      createdAtMs: Date.parse(broadcast.createdAt),
      expiresAtMs: Date.parse(broadcast.expiresAt),
      seq: nextSeq++,
    });
  }

  return {
    add,

    /** Whether the user has any open broadcast (the common case: no, and the ping looks no further). */
    has(userId: string): boolean {
      return byUser.has(userId);
    },

    /** What this server may take now, oldest first, at most `limit`. */
    due(userId: string, serverId: string, connectedAtMs: number, nowMs: number, limit: number): OpenBroadcast[] {
      const list = byUser.get(userId);
      if (!list || limit <= 0) return [];
      const mark = marks.get(userId)?.get(serverId) ?? 0;
      const due: Entry[] = [];
      // Newest first, stopping at the mark: a server that took the last one looks at one entry.
      for (let index = list.length - 1; index >= 0; index -= 1) {
        const entry = list[index]!;
        if (entry.seq <= mark) break;
        if (entry.createdAtMs >= connectedAtMs && entry.expiresAtMs > nowMs) due.push(entry);
      }
      // Nothing due: none above the mark will ever be (connection times and the clock only grow).
      if (due.length === 0) setMark(userId, serverId, list.at(-1)!.seq);
      if (due.length > 1) due.sort(byCreation);
      return due.slice(0, limit);
    },

    /** The server has these (taken now, or found already taken): it is not offered them again. */
    taken(userId: string, serverId: string, connectedAtMs: number, nowMs: number, broadcasts: OpenBroadcast[]): void {
      const list = byUser.get(userId);
      if (!list || broadcasts.length === 0) return;
      const takenIds = new Set(broadcasts.map((broadcast) => broadcast.id));
      const mark = marks.get(userId)?.get(serverId) ?? 0;
      // The mark moves to the newest one taken with nothing due below it (a capped ping took the
      // oldest ten; the rest stay above the mark for the next ping).
      let next = mark;
      for (const entry of list) {
        if (entry.seq <= mark) continue;
        const due = entry.createdAtMs >= connectedAtMs && entry.expiresAtMs > nowMs;
        if (due && !takenIds.has(entry.id)) break;
        next = entry.seq;
      }
      setMark(userId, serverId, next);
    },

    /**
     * Adds what the database lists as open (sent through another instance while the bus lost the
     * news) and drops what expired. A user with none left loses the servers' marks with them.
     */
    refresh(open: OpenBroadcast[], nowMs: number): void {
      for (const broadcast of open) add(broadcast);
      for (const [userId, list] of byUser) {
        const kept = list.filter((entry) => entry.expiresAtMs > nowMs);
        for (const entry of list) if (entry.expiresAtMs <= nowMs) ids.delete(entry.id);
        if (kept.length > 0) {
          byUser.set(userId, kept);
          // A mark below every open broadcast says nothing any more (a server gone for good).
          const servers = marks.get(userId);
          const oldest = kept[0]!.seq;
          if (servers) for (const [serverId, seq] of servers) if (seq < oldest) servers.delete(serverId);
        } else {
          byUser.delete(userId);
          marks.delete(userId);
        }
      }
    },

    /** Broadcasts and servers' marks kept (for the benchmarks' memory figures and tests). */
    get size(): { broadcasts: number; marks: number } {
      let broadcasts = 0;
      let marked = 0;
      for (const list of byUser.values()) broadcasts += list.length;
      for (const servers of marks.values()) marked += servers.size;
      return { broadcasts, marks: marked };
    },
  };
}

export type OpenBroadcasts = ReturnType<typeof createOpenBroadcasts>;

import type { GameServerRefusal } from '@moonrelay/contract/game';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { ServerPresence } from '../../platform/presence.ts';

/**
 * The game's own health: the last ping of each game server that Moonrelay refused for what it
 * carried (400), and why. A game whose pings are refused never shows as a server, so without this
 * its owner would see nothing at all; with it the dashboard says "your game's pings are refused: ...".
 *
 * Kept in the database (migration 015, docs/decisions/026): a refused server has no presence, and in
 * the scale-out mode the screens may ask another instance. Writes are paced per server (a failing
 * game retries every 2-60 s; a made-up server id costs at most one write per RECORD_EVERY_MS).
 */

/**
 * Refusals for the API key's server budget are kept under this id, one per user: a flood of made-up
 * ids is one warning, not a row each. No game server can send it (server ids are [A-Za-z0-9_.:-]).
 */
const BUDGET_REFUSAL_ID = '*budget';

/** A server's refusal is written at most this often. */
const RECORD_EVERY_MS = 5_000;
/** Refusals older than this are no longer shown (the game was stopped, or fixed and gone). */
export const REFUSAL_SHOWN_MS = 10 * 60 * 1000;
/** The pacing map is cleared past this many servers, so it cannot grow without end. */
const PACED_SERVERS_MAX = 10_000;
/** The reason is stored up to this many characters (the error of a 400, which names the field). */
const REASON_MAX_CHARS = 500;

export function createPingRefusals(deps: { db: Db; logger: Logger }) {
  const { db, logger } = deps;
  const lastRecorded = new Map<string, number>();

  /** Notes a refused ping; never throws and never holds up the answer. */
  function record(userId: string, serverId: string, reason: string, nowMs = Date.now()): void {
    const key = `${userId}\n${serverId}`;
    if (nowMs - (lastRecorded.get(key) ?? -Infinity) < RECORD_EVERY_MS) return;
    if (lastRecorded.size >= PACED_SERVERS_MAX) lastRecorded.clear();
    lastRecorded.set(key, nowMs);
    const row = {
      userId,
      serverId,
      reason: reason.slice(0, REASON_MAX_CHARS),
      refusedAt: new Date(nowMs).toISOString(),
    };
    db.insertInto('gamePingRefusals')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['userId', 'serverId']).doUpdateSet({ reason: row.reason, refusedAt: row.refusedAt }),
      )
      .execute()
      .catch((error: unknown) => logger.warn({ err: error, userId }, 'refused game ping not recorded'));
  }

  /**
   * The user's servers whose last ping was refused within REFUSAL_SHOWN_MS and that have not pinged
   * successfully since (`known`: their presence), most recent first.
   */
  async function recent(userId: string, known: ServerPresence[], nowMs = Date.now()): Promise<GameServerRefusal[]> {
    const rows = await db
      .selectFrom('gamePingRefusals')
      .select(['serverId', 'reason', 'refusedAt'])
      .where('userId', '=', userId)
      .where('serverId', '!=', BUDGET_REFUSAL_ID)
      .where('refusedAt', '>', new Date(nowMs - REFUSAL_SHOWN_MS).toISOString())
      .orderBy('refusedAt', 'desc')
      .limit(20)
      .execute();
    const lastPing = new Map(known.map((presence) => [presence.serverId, presence.lastPingMs]));
    return rows.filter((row) => (lastPing.get(row.serverId) ?? -Infinity) < Date.parse(row.refusedAt));
  }

  /** Notes a game server refused for the key's server budget (paced as one server). */
  function recordBudget(userId: string, serverId: string, reason: string, nowMs = Date.now()): void {
    record(userId, BUDGET_REFUSAL_ID, `${serverId}: ${reason}`, nowMs);
  }

  /** The last budget refusal within REFUSAL_SHOWN_MS, if any. */
  async function budget(userId: string, nowMs = Date.now()): Promise<GameServerRefusal | null> {
    const row = await db
      .selectFrom('gamePingRefusals')
      .select(['serverId', 'reason', 'refusedAt'])
      .where('userId', '=', userId)
      .where('serverId', '=', BUDGET_REFUSAL_ID)
      .where('refusedAt', '>', new Date(nowMs - REFUSAL_SHOWN_MS).toISOString())
      .executeTakeFirst();
    return row ?? null;
  }

  return { record, recent, recordBudget, budget };
}

export type PingRefusals = ReturnType<typeof createPingRefusals>;

import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { GameServersTable } from '../../db/schema.ts';

export type GameServerRow = Selectable<GameServersTable>;

/** The last known presence of each game server, saved now and then (never on every ping). */
export const gameServersRepo = {
  async save(db: Db, row: GameServerRow): Promise<void> {
    await db
      .insertInto('gameServers')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['userId', 'serverId']).doUpdateSet({
          gameData: row.gameData,
          connectedAt: row.connectedAt,
          lastPing: row.lastPing,
          disconnectedAt: row.disconnectedAt,
        }),
      )
      .execute();
  },

  latestForUser(db: Db, userId: string): Promise<GameServerRow | undefined> {
    return db
      .selectFrom('gameServers')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('lastPing', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
};

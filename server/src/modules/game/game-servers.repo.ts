import type { Selectable } from 'kysely';
import { writeInChunks } from '../../db/bulk-writes.ts';
import type { Db } from '../../db/database.ts';
import type { GameServersTable } from '../../db/schema.ts';

export type GameServerRow = Selectable<GameServersTable>;

/** The last known presence of each game server, saved now and then (never on every ping). */
export const gameServersRepo = {
  /**
   * Inserts or updates the rows, in as few statements as the engine's parameter bound allows;
   * callers wanting them together pass a transaction (the periodic save does).
   */
  async saveMany(db: Db, rows: GameServerRow[]): Promise<void> {
    await writeInChunks(db, rows, (chunk) =>
      db
        .insertInto('gameServers')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['userId', 'serverId']).doUpdateSet((eb) => ({
            gameData: eb.ref('excluded.gameData'),
            connectedAt: eb.ref('excluded.connectedAt'),
            lastPing: eb.ref('excluded.lastPing'),
            disconnectedAt: eb.ref('excluded.disconnectedAt'),
          })),
        )
        .execute(),
    );
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

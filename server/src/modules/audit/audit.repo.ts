import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { escapeLike } from '../../db/like.ts';
import { sql } from 'kysely';
import type { AuditLogTable } from '../../db/schema.ts';

export type AuditRow = Selectable<AuditLogTable>;

/** Inserts and reads only: the table refuses updates and deletes (migration 004). */
export const auditRepo = {
  async insert(db: Db, row: AuditRow): Promise<void> {
    await db.insertInto('auditLog').values(row).execute();
  },

  page(db: Db, offset: number, limit: number): Promise<AuditRow[]> {
    return db
      .selectFrom('auditLog')
      .selectAll()
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  /** A team's entries, newest first, after the cursor's (time, id); one more than `limit` tells there are more. */
  teamPage(
    db: Db,
    teamId: string,
    filter: { after?: { time: string; id: string }; action?: string; actorId?: string; limit: number },
  ): Promise<AuditRow[]> {
    let query = db.selectFrom('auditLog').selectAll().where('teamId', '=', teamId);
    const { after, action, actorId } = filter;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('createdAt', '<', after.time), eb.and([eb('createdAt', '=', after.time), eb('id', '<', after.id)])]),
      );
    }
    // A family ends with a dot: every action under it.
    if (action?.endsWith('.')) query = query.where(sql<boolean>`action like ${`${escapeLike(action)}%`} escape '\\'`);
    else if (action) query = query.where('action', '=', action);
    if (actorId) query = query.where('actorId', '=', actorId);
    return query
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit + 1)
      .execute();
  },

  async count(db: Db): Promise<number> {
    const { count } = await db
      .selectFrom('auditLog')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  },
};

import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
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

  async count(db: Db): Promise<number> {
    const { count } = await db
      .selectFrom('auditLog')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  },
};

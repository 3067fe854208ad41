import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { ScriptTypeFilter } from '@moonrelay/contract/scripts';
import type { Db } from '../../db/database.ts';
import { containsIgnoringCase } from '../../db/like.ts';
import type { Database, ScriptsTable } from '../../db/schema.ts';

export type ScriptRow = Selectable<ScriptsTable>;
export type ScriptPatch = Updateable<Omit<ScriptsTable, 'id' | 'userId' | 'createdAt' | 'version'>>;

/** What My Scripts narrows the list by (GET /api/scripts/page). */
export interface ScriptListFilters {
  /** Name or description contains it, ignoring case; empty or absent: no search. */
  q?: string;
  type: ScriptTypeFilter;
  /** The caller may see the auto-execute scripts only (a key of the game scope alone). */
  autoExecuteOnly: boolean;
}

/** Where a page of scripts starts: after this script, most recently updated first. */
export interface ScriptPosition {
  updatedAt: string;
  id: string;
}

/** The columns of a script's summary: what its row shows, never the code. */
const summaryColumns = [
  'id',
  'name',
  'description',
  'isAutoExecute',
  'isPublic',
  'executionCount',
  'createdAt',
  'updatedAt',
] as const;

type ScriptsBuilder = ExpressionBuilder<Database, 'scripts'>;

/** The scripts the caller may list at all (the count in My Scripts' heading). */
const visible = (eb: ScriptsBuilder, userId: string, filters: ScriptListFilters): Expression<SqlBool> =>
  eb.and([eb('userId', '=', userId), ...(filters.autoExecuteOnly ? [eb('isAutoExecute', '=', 1)] : [])]);

/** The search and type filter; undefined when they narrow nothing. */
function narrowing(eb: ScriptsBuilder, filters: ScriptListFilters): Expression<SqlBool> | undefined {
  const parts: Expression<SqlBool>[] = [];
  if (filters.type === 'auto') parts.push(eb('isAutoExecute', '=', 1));
  if (filters.type === 'manual') parts.push(eb('isAutoExecute', '=', 0));
  const q = filters.q?.trim();
  if (q) parts.push(eb.or([containsIgnoringCase(eb.ref('name'), q), containsIgnoringCase(eb.ref('description'), q)]));
  return parts.length > 0 ? eb.and(parts) : undefined;
}

/** Every query is scoped by owner: a script id alone never reaches another user's row. */
export const scriptsRepo = {
  /**
   * One page of the owner's scripts without their code, most recently updated first (the id, from
   * the highest, breaks ties), strictly after `start`; `limit` rows at most. Walks the index
   * (user_id, updated_at, id) from the cursor down.
   */
  listPage(db: Db, userId: string, filters: ScriptListFilters, start: ScriptPosition | undefined, limit: number) {
    return db
      .selectFrom('scripts')
      .select(summaryColumns)
      .where((eb) => {
        const narrowed = narrowing(eb, filters);
        return eb.and([
          visible(eb, userId, filters),
          ...(narrowed ? [narrowed] : []),
          ...(start
            ? [
                eb.or([
                  eb('updatedAt', '<', start.updatedAt),
                  eb.and([eb('updatedAt', '=', start.updatedAt), eb('id', '<', start.id)]),
                ]),
              ]
            : []),
        ]);
      })
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** How many scripts the caller may list (total), and how many of them the filters match. */
  async countPage(db: Db, userId: string, filters: ScriptListFilters): Promise<{ total: number; matching: number }> {
    const row = await db
      .selectFrom('scripts')
      .where((eb) => visible(eb, userId, filters))
      .select((eb) => {
        const narrowed = narrowing(eb, filters);
        return [
          eb.fn.countAll().as('total'),
          (narrowed ? sql`sum(case when ${narrowed} then 1 else 0 end)` : eb.fn.countAll()).as('matching'),
        ];
      })
      .executeTakeFirstOrThrow();
    // PostgreSQL answers count and sum as bigint text; sum over no rows is null.
    return { total: Number(row.total), matching: Number(row.matching ?? 0) };
  },

  listForUser(db: Db, userId: string): Promise<ScriptRow[]> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .execute();
  },

  findForUser(db: Db, userId: string, id: string): Promise<ScriptRow | undefined> {
    return db.selectFrom('scripts').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  },

  /** Names are not unique: the most recently updated script of that name. */
  findByNameForUser(db: Db, userId: string, name: string): Promise<ScriptRow | undefined> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .where('name', '=', name)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .executeTakeFirst();
  },

  /** The auto-execute scripts of that name, newest first: the ones a game key may fetch by name. */
  listAutoExecuteByNameForUser(db: Db, userId: string, name: string): Promise<ScriptRow[]> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .where('name', '=', name)
      .where('isAutoExecute', '=', 1)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .execute();
  },

  async insert(db: Db, row: ScriptRow): Promise<void> {
    await db.insertInto('scripts').values(row).execute();
  },

  /**
   * Changes the script and answers it as changed; `newVersion` bumps its version number in the same
   * statement, so concurrent saves never share a number.
   */
  updateForUser(
    db: Db,
    userId: string,
    id: string,
    patch: ScriptPatch,
    newVersion: boolean,
    /** Only while the script is still at this version (a save made on it); any version without. */
    atVersion?: number,
  ): Promise<ScriptRow | undefined> {
    let update = db
      .updateTable('scripts')
      .set(newVersion ? { ...patch, version: sql<number>`version + 1` } : patch)
      .where('id', '=', id)
      .where('userId', '=', userId);
    if (atVersion !== undefined) update = update.where('version', '=', atVersion);
    return update.returningAll().executeTakeFirst();
  },

  async deleteForUser(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('scripts').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};

import { PostgresAdapter } from 'kysely';
import type { Db } from './database.ts';

/**
 * Each engine binds a bounded number of parameters in one statement, and a multi-row INSERT binds
 * one per row and column: a few thousand rows of a wide table are past the bound, the statement
 * fails ("too many SQL variables") and the request that made it answers 500. So every multi-row
 * `.values(...)` in server/src goes through writeInChunks (bulk-writes.test.ts fails on one that
 * does not), and a long `in` list built from unbounded input goes through whereInChunks.
 *
 * Neither opens a transaction: chunks are separate statements, so a caller that needs them all or
 * none passes a transaction (inTransaction in database.ts), and one already in a transaction (or
 * content with what got written) does not pay for a second.
 */

export type Engine = 'sqlite' | 'postgres';

/**
 * SQLite: SQLITE_MAX_VARIABLE_NUMBER, 32,766 by default since 3.32 and so in better-sqlite3's build
 * (one more fails). PostgreSQL: the wire protocol counts a statement's parameters in 16 bits.
 */
export const MAX_PARAMETERS: Record<Engine, number> = { sqlite: 32_766, postgres: 65_535 };

/** Kept for the statement's other clauses (WHERE, ON CONFLICT ... DO UPDATE SET), which bind a few too. */
const OTHER_PARAMETERS = 100;

/** Told apart as database.ts's callers do, by the Kysely adapter; one not PostgreSQL gets the smaller bound. */
export function engineOf(db: Db): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** How many rows of `columns` bound values one statement may carry on `engine`. */
export function rowsPerStatement(engine: Engine, columns: number): number {
  return Math.max(1, Math.floor((MAX_PARAMETERS[engine] - OTHER_PARAMETERS) / Math.max(1, columns)));
}

/**
 * Kysely writes the union of the rows' keys (a key whose value is undefined is left out, and a
 * column a row lacks is written as DEFAULT, or NULL on SQLite, not bound), so that union is the
 * most one row binds.
 */
function columnsOf(rows: readonly object[]): number {
  const keys = new Set<string>();
  for (const row of rows) for (const [key, value] of Object.entries(row)) if (value !== undefined) keys.add(key);
  return keys.size;
}

/**
 * Runs `write` (an INSERT, or INSERT ... ON CONFLICT ... DO UPDATE, of the rows it is given) once per
 * chunk of `rows`, in order, each chunk as many rows as fit the engine's bound; answers what each
 * call answered, in order. `sizes` (rows, largest first, ending with 1) limits the chunks to those
 * sizes, taking the largest that fits what is left: a caller on a hot path keeps the number of
 * distinct statements small, since SQLite keeps each one prepared by its text (database.ts).
 */
/**
 * Chunk sizes for a hot path: the powers of two up to `most`, largest first. A batch of any size is
 * then a few statements (37 rows: 32 + 4 + 1) drawn from a few texts SQLite keeps prepared; sizes
 * that follow each batch would prepare a new statement nearly every time (the profile of a fleet
 * answering broadcasts showed it).
 */
export function powersOfTwoUpTo(most: number): number[] {
  const sizes: number[] = [];
  for (let size = 1; size <= most; size *= 2) sizes.unshift(size);
  return sizes;
}

export async function writeInChunks<Row extends object, Out>(
  db: Db,
  rows: readonly Row[],
  write: (chunk: Row[]) => Promise<Out>,
  options: { sizes?: readonly number[] } = {},
): Promise<Out[]> {
  const outs: Out[] = [];
  if (rows.length === 0) return outs;
  const most = rowsPerStatement(engineOf(db), columnsOf(rows));
  for (let start = 0; start < rows.length;) {
    const fits = Math.min(most, rows.length - start);
    const size = options.sizes ? (options.sizes.find((candidate) => candidate <= fits) ?? 1) : fits;
    outs.push(await write(rows.slice(start, start + size)));
    start += size;
  }
  return outs;
}

/**
 * Runs `run` (a SELECT, or an UPDATE/DELETE ... RETURNING, with `where(column, 'in', chunk)`) once per
 * chunk of `values` that fits the engine's bound, and answers all their rows: in chunk order, not
 * in any order the statement asks for, so a caller that needs one sorts them. No values, no query
 * (an empty `in ()` is a syntax error on PostgreSQL).
 */
export async function whereInChunks<Value, Out>(
  db: Db,
  values: readonly Value[],
  run: (chunk: Value[]) => Promise<readonly Out[]>,
  /** Parameters each value binds (a list of tuples binds one per field). */
  parametersPerValue = 1,
): Promise<Out[]> {
  const outs: Out[] = [];
  const size = rowsPerStatement(engineOf(db), parametersPerValue);
  for (let start = 0; start < values.length; start += size) {
    // One push per row: spreading tens of thousands of rows as arguments can overflow the stack.
    for (const out of await run(values.slice(start, start + size))) outs.push(out);
  }
  return outs;
}

import { sql, type Expression, type RawBuilder } from 'kysely';

/** Text for a LIKE pattern, its wildcards taken literally (the queries say `escape '\'`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * `column` contains `text`, ignoring case: lower() on both sides, so each engine folds the text and
 * the pattern the same way (PostgreSQL folds all of Unicode; SQLite, like its LIKE, only ASCII).
 */
export function containsIgnoringCase(column: Expression<string | null>, text: string): RawBuilder<boolean> {
  const pattern = `%${escapeLike(text)}%`;
  return sql<boolean>`lower(${column}) like lower(${pattern}) escape '\\'`;
}

import type { Db } from '../src/db/database.ts';

/** A user row straight into the database, for repository and service tests that need an owner. */
export async function insertUserRow(db: Db, id: string): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const username = id.replaceAll('-', '_');
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      username,
      usernameKey: username,
      name: id,
      passwordHash: null,
      googleId: null,
      isAdmin: 0,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

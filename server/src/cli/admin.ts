import crypto from 'node:crypto';
import { loadConfig } from '../config.ts';
import { auditRepo } from '../modules/audit/audit.repo.ts';
import { AUDIT_ACTIONS } from '../modules/audit/audit.service.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { usersRepo } from '../modules/users/users.repo.ts';
import { nowIso } from '../db/time.ts';
import { createLogger } from '../logger.ts';

/**
 * Account administration from the command line, against the configured database:
 *   npm run admin -- promote <email-or-username>
 *   npm run admin -- demote <email-or-username>
 * Runs the migrations first, so it also works before the server's first start.
 */
const USAGE = 'Usage: npm run admin -- promote|demote <email-or-username>';

async function main(argv: string[]): Promise<number> {
  const [command, identifier] = argv;
  if ((command !== 'promote' && command !== 'demote') || !identifier) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = openDatabase(config.database, createLogger(config.logLevel));
  try {
    await migrateToLatest(database.db);
    const user = await usersRepo.findByEmailOrUsername(database.db, identifier);
    if (!user) {
      console.error(`No account with the email or username "${identifier}".`);
      return 1;
    }
    const now = nowIso();
    await usersRepo.setAdmin(database.db, user.id, command === 'promote', now);
    // Recorded like the admin panel's role changes; the command line has no signed-in actor.
    await auditRepo.insert(database.db, {
      id: crypto.randomUUID(),
      actorId: null,
      actorName: 'command line',
      action: AUDIT_ACTIONS.cliRoleChanged,
      targetType: 'user',
      targetId: user.id,
      details: JSON.stringify({ isAdmin: command === 'promote', username: user.username }),
      createdAt: now,
    });
    console.log(
      `${user.username} <${user.email}> is ${command === 'promote' ? 'now an admin' : 'no longer an admin'}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

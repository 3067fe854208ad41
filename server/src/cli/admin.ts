import crypto from 'node:crypto';
import { PasswordSchema } from '@moonrelay/contract/auth';
import { loadConfig } from '../config.ts';
import { auditRepo } from '../modules/audit/audit.repo.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../modules/audit/audit.service.ts';
import { inTransaction, migrateToLatest, openDatabase, type Db } from '../db/database.ts';
import { usersRepo, type UserRow } from '../modules/users/users.repo.ts';
import { nowIso } from '../db/time.ts';
import { createLogger } from '../logger.ts';
import { hashPassword } from '../security/passwords.ts';

/**
 * Account administration from the command line, against the configured database:
 *   npm run admin -- promote <email-or-username>         (make-admin: the same)
 *   npm run admin -- demote <email-or-username>
 *   npm run admin -- reset-password <email-or-username> [--stdin]
 * Runs the migrations first, so it also works before the server's first start. Each change is
 * audited with "command line" as the actor (there is no signed-in one). docs/operations.md.
 */
const USAGE = `Usage: npm run admin -- <command> <email-or-username>
  promote, make-admin          make the account an admin
  demote                       make the account an ordinary member
  reset-password               give the account a new random password, printed once, and sign it out everywhere
  reset-password ... --stdin   the same with a password read from standard input (typed twice, unseen, at a terminal)`;

const ROLE_COMMANDS: Record<string, boolean> = { promote: true, 'make-admin': true, demote: false };

/** 20 characters of base64url, 120 random bits: pasted once by its owner, then changed in Settings. */
const randomPassword = () => crypto.randomBytes(15).toString('base64url');

/** A line typed at the terminal without showing it; Ctrl+C cancels. */
function readUnseen(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new Error('Cancelled: the password is unchanged.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    process.stderr.write(prompt);
    input.setEncoding('utf8');
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}

/** The password given on standard input: typed twice at a terminal, else the first line piped in. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    const first = await readUnseen('New password: ');
    if ((await readUnseen('The same again: ')) !== first) throw new Error('The two passwords differ: nothing changed.');
    return first;
  }
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

/** Recorded like the admin panel's changes; the command line has no signed-in actor. */
const audit = (db: Db, action: AuditAction, user: UserRow, details: Record<string, unknown>, at: string) =>
  auditRepo.insert(db, {
    id: crypto.randomUUID(),
    actorId: null,
    actorName: 'command line',
    action,
    targetType: 'user',
    targetId: user.id,
    details: JSON.stringify(details),
    createdAt: at,
    teamId: null,
  });

async function setRole(db: Db, user: UserRow, isAdmin: boolean): Promise<number> {
  const now = nowIso();
  await usersRepo.setAdmin(db, user.id, isAdmin, now);
  await audit(db, AUDIT_ACTIONS.cliRoleChanged, user, { isAdmin, username: user.username }, now);
  console.log(`${user.username} <${user.email}> is ${isAdmin ? 'now an admin' : 'no longer an admin'}.`);
  return 0;
}

/**
 * A new password, and every session of the account ended in the same transaction: whoever held
 * one (the person who lost the password, or whoever found it) must sign in with the new password.
 * Requests with an ended session fail at once; open screens' sockets close at their next recheck
 * (SOCKET_RECHECK_MS), as this process cannot reach the server's event bus (decision 014).
 */
async function resetPassword(db: Db, user: UserRow, password: string, chosen: boolean): Promise<void> {
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const ended = await inTransaction(db, async (trx) => {
    await usersRepo.setPasswordHash(trx, user.id, passwordHash, now);
    const live = await trx
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', user.id)
      .where('expiresAt', '>', now)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('sessions').where('userId', '=', user.id).execute();
    const endedSessions = Number(live.count);
    const details = { username: user.username, endedSessions, password: chosen ? 'chosen' : 'generated' };
    await audit(trx, AUDIT_ACTIONS.cliPasswordReset, user, details, now);
    return endedSessions;
  });
  const signedOut = `Signed out ${ended} session${ended === 1 ? '' : 's'}.`;
  if (chosen) {
    console.log(`The password of ${user.username} <${user.email}> is changed. ${signedOut}`);
  } else {
    console.log(`New password for ${user.username} <${user.email}>: ${password}`);
    console.log(`It is shown only this once. ${signedOut}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, identifier, ...options] = argv;
  const roleChange = command === undefined ? undefined : ROLE_COMMANDS[command];
  const known = roleChange !== undefined || command === 'reset-password';
  const stdin = options.includes('--stdin');
  if (!known || !identifier || options.some((option) => option !== '--stdin') || (stdin && roleChange !== undefined)) {
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
    if (roleChange !== undefined) return await setRole(database.db, user, roleChange);
    const password = stdin ? await passwordFromStdin() : randomPassword();
    const checked = PasswordSchema.safeParse(password);
    if (!checked.success) {
      console.error(`${checked.error.issues[0]!.message}: the password is unchanged.`);
      return 1;
    }
    await resetPassword(database.db, user, password, stdin);
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

import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';
import { describeOnSQLite, engines } from '../../test/engines.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/** Runs the real command, as `npm run admin -- ...` does, on the test server's SQLite file. */
async function admin(dataDir: string, ...args: string[]) {
  try {
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const { stdout, stderr } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      ['server/src/cli/admin.ts', ...args],
      {
        cwd: root,
        env: { ...env, DATA_DIR: dataDir },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run admin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
  });
  afterAll(() => server.close());

  it('promotes and demotes an account by username or email', async () => {
    await registerUser(server); // the first account is admin already
    const { token, input } = await registerUser(server);
    expect((await server.call('GET', '/api/user', { token })).body.isAdmin).toBe(false);

    const promoted = await admin(server.config.dataDir, 'promote', input.username);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('now an admin');
    expect((await server.call('GET', '/api/user', { token })).body.isAdmin).toBe(true);

    const demoted = await admin(server.config.dataDir, 'demote', input.email.toUpperCase());
    expect(demoted.code).toBe(0);
    expect((await server.call('GET', '/api/user', { token })).body.isAdmin).toBe(false);
  });

  it('says so when the account does not exist, and shows usage for a bad command', async () => {
    const missing = await admin(server.config.dataDir, 'promote', 'nobody');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No account with the email or username "nobody"');
    const usage = await admin(server.config.dataDir, 'delete-everything');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run admin -- <command> <email-or-username>');
  });

  it('works on a fresh data folder (migrating it first)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-cli-'));
    try {
      const result = await admin(dir, 'promote', 'someone');
      expect(result.code).toBe(1);
      expect(fs.existsSync(path.join(dir, 'moonrelay.db'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Runs the real command on any engine's database: the SQLite file in DATA_DIR, or DATABASE_URL. */
async function adminOn(server: TestServer, args: string[], input?: string) {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const database = server.config.database;
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/src/cli/admin.ts', ...args], {
    cwd: root,
    env: {
      ...env,
      DATA_DIR: server.config.dataDir,
      ...(database.kind === 'postgres' ? { DATABASE_URL: database.url } : {}),
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input ?? '');
  const [code] = (await once(child, 'close')) as [number];
  return { code, stdout, stderr };
}

describeOnSQLite('npm run admin: a way back into an account', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
    await registerUser(server); // the first account is admin; the ones below are not
  });
  afterAll(() => server.close());

  const login = (emailOrUsername: string, password: string) =>
    server.call('POST', '/api/auth/login', { body: { emailOrUsername, password } });
  const auditOf = (userId: string, action: string) =>
    server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('targetId', '=', userId)
      .where('action', '=', action)
      .execute();

  it('reset-password prints a new random password once, ends every session, and is audited', async () => {
    const { token, user, input, password } = await registerUser(server);
    const other = await login(input.username, password);
    expect(other.status).toBe(200);

    const reset = await adminOn(server, ['reset-password', input.email]);
    expect(reset.code, reset.stderr).toBe(0);
    const printed = /^New password for (\S+) <([^>]+)>: (\S+)$/m.exec(reset.stdout);
    expect(printed?.slice(1, 3)).toEqual([input.username, input.email]);
    const newPassword = printed![3]!;
    expect(newPassword.length).toBeGreaterThanOrEqual(20);
    expect(reset.stdout).toContain('It is shown only this once.');
    expect(reset.stdout).toContain('Signed out 2 sessions.');

    // Both sessions are over, the old password is refused and the new one signs in.
    expect((await server.call('GET', '/api/user', { token })).status).toBe(401);
    expect((await server.call('GET', '/api/user', { token: other.body.token })).status).toBe(401);
    expect((await login(input.username, password)).status).toBe(401);
    expect((await login(input.username, newPassword)).status).toBe(200);

    const [entry] = await auditOf(user.id, 'cli.password_reset');
    expect(entry).toMatchObject({ actorId: null, actorName: 'command line', targetType: 'user' });
    expect(JSON.parse(entry!.details)).toEqual({ username: input.username, endedSessions: 2, password: 'generated' });
    // The password itself is written nowhere but the terminal.
    expect(entry!.details).not.toContain(newPassword);
  });

  it('reset-password --stdin takes the password from standard input, and refuses one too short', async () => {
    const { user, input } = await registerUser(server);
    const short = await adminOn(server, ['reset-password', input.username, '--stdin'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('Password must be at least 8 characters');
    expect(await auditOf(user.id, 'cli.password_reset')).toEqual([]);

    const chosen = await adminOn(server, ['reset-password', input.username, '--stdin'], 'a chosen passphrase\n');
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).not.toContain('a chosen passphrase');
    expect(chosen.stdout).toContain(`The password of ${input.username} <${input.email}> is changed.`);
    expect((await login(input.email, 'a chosen passphrase')).status).toBe(200);
    const [entry] = await auditOf(user.id, 'cli.password_reset');
    expect(JSON.parse(entry!.details)).toMatchObject({ password: 'chosen' });
  });

  it('make-admin makes an account admin, audited as a role change from the command line', async () => {
    const { token, user, input } = await registerUser(server);
    const made = await adminOn(server, ['make-admin', input.username]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('now an admin');
    expect((await server.call('GET', '/api/user', { token })).body.isAdmin).toBe(true);
    const [entry] = await auditOf(user.id, 'cli.role_changed');
    expect(JSON.parse(entry!.details)).toEqual({ isAdmin: true, username: input.username });
  });

  it('says so for an unknown account, and lists every command in its usage', async () => {
    const missing = await adminOn(server, ['reset-password', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No account with the email or username "nobody".');
    const usage = await adminOn(server, ['reset-password']);
    expect(usage.code).toBe(2);
    for (const command of ['promote', 'make-admin', 'demote', 'reset-password']) {
      expect(usage.stderr).toContain(command);
    }
  });
});

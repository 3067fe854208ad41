import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';
import { engines } from '../../test/engines.ts';

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
    expect(usage.stderr).toContain('Usage: npm run admin -- promote|demote');
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

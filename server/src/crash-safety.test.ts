import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startInstance, type Instance } from '../test/instances.ts';

const ROUNDS = 3;
const ENQUEUES = 1_000;
const CONCURRENCY = 16;

/**
 * The embedded mode's promise: an acknowledged command is on disk. The single instance is killed
 * (SIGKILL: no shutdown) in the middle of 1 000 command enqueues, three times over one SQLite file;
 * after each crash every acknowledged command is there and the database passes its integrity check.
 */
describe('crash safety of the embedded mode', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-crash-'));
  let instance: Instance | undefined;
  afterAll(async () => {
    await instance?.crash().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = {
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
    LOG_LEVEL: 'info',
  };
  const post = async (url: string, pathname: string, body: unknown, token?: string) => {
    const response = await fetch(url + pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { id?: string; token?: string } };
  };

  it('keeps every acknowledged command through repeated kill -9, with the database intact', async () => {
    instance = await startInstance('server', env);
    const registered = await post(instance.url, '/api/auth/register', {
      email: 'crash@example.com',
      username: 'crasher',
      name: 'Crash',
      password: 'correct horse battery',
    });
    const token = registered.body.token!;
    const acknowledged: string[] = [];

    for (let round = 0; round < ROUNDS; round += 1) {
      const url = instance.url;
      let next = 0;
      let killed = false;
      const roundAcks: string[] = [];
      /** Answers other than 200 (and failed requests) while the instance was running normally. */
      const refused: string[] = [];
      const sender = async () => {
        while (next < ENQUEUES) {
          next += 1;
          try {
            const res = await post(
              url,
              '/api/game/command',
              { type: 'teleport', data: { x: round, y: next, z: 0 } },
              token,
            );
            if (res.status === 200) roundAcks.push(res.body.id!);
            else if (!killed) refused.push(`${res.status} ${JSON.stringify(res.body)}`);
          } catch (error) {
            if (killed) return; // the process is gone: nothing more is acknowledged
            refused.push(`before the kill: ${String(error)}`);
            return;
          }
        }
      };
      const senders = Array.from({ length: CONCURRENCY }, sender);
      // Kill somewhere in the middle of the round.
      const killAt = 200 + Math.floor(Math.random() * 400);
      while (roundAcks.length < killAt && next < ENQUEUES) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await instance.crash();
      await Promise.all(senders);
      expect(refused).toEqual([]);
      expect(roundAcks.length).toBeGreaterThanOrEqual(killAt);
      expect(roundAcks.length).toBeLessThan(ENQUEUES);
      acknowledged.push(...roundAcks);

      // The file as the crash left it: intact, and holding every acknowledged command.
      const sqlite = new SQLite(path.join(dataDir, 'moonrelay.db'));
      try {
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        const stored = new Set(
          (sqlite.prepare('select id from game_commands').all() as { id: string }[]).map((row) => row.id),
        );
        expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      } finally {
        sqlite.close();
      }
      instance = await startInstance('server', env);
    }
  }, 180_000);
});

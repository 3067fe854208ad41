import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { SOCKET_PATH } from '@moonrelay/contract/events';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the real entry point as `npm start` does (minus the web build) and waits for its port. */
function startMain(env: Record<string, string>): Promise<Started> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(tsx, ['server/src/main.ts'], {
    cwd: root,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port in time:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

describe('main (the server process)', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-main-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts on a fresh data folder: SQLite file and server secret created, API answering', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const started = await startMain({ DATA_DIR: dataDir });
    children.push(started.child);
    const res = await fetch(`http://127.0.0.1:${started.port}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'moonrelay.db'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(true);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('finishes an in-flight request on SIGTERM, then exits cleanly with the database closed', async () => {
    const dataDir = tempDir();
    const started = await startMain({ DATA_DIR: dataDir });
    children.push(started.child);
    const body = JSON.stringify({ email: 'late@example.com', username: 'late', name: 'Late', password: 'password123' });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: started.port,
          method: 'POST',
          path: '/api/auth/register',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on('error', reject);
      // Half the body now, the signal, then the rest: the request is in flight when the signal lands.
      request.write(body.slice(0, 10));
      setTimeout(() => {
        started.child.kill('SIGTERM');
        setTimeout(() => request.end(body.slice(10)), 300);
      }, 300);
    });
    const { status, text } = await answer;
    expect(status, text).toBe(200);
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('"msg":"stopped"');
    // New connections are refused once it has stopped.
    await expect(fetch(`http://127.0.0.1:${started.port}/api/openapi.json`)).rejects.toThrow();
  });

  it('answers a held long-poll at once on SIGTERM instead of waiting out its 20 s', async () => {
    const started = await startMain({ DATA_DIR: tempDir() });
    children.push(started.child);
    const base = `http://127.0.0.1:${started.port}`;
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'poll@example.com', username: 'poller', name: 'P', password: 'password123' }),
    }).then((res) => res.json() as Promise<{ token: string; user: { apiKey: string } }>);
    const held = fetch(`${base}/api/game/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: registered.user.apiKey, serverId: 'held', wait: 20 }),
    });
    // The ping is held once the server has taken it: the game shows as connected.
    for (;;) {
      const status = await fetch(`${base}/api/game/status`, {
        headers: { authorization: `Bearer ${registered.token}` },
      }).then((res) => res.json() as Promise<{ connected: boolean }>);
      if (status.connected) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const signalled = Date.now();
    started.child.kill('SIGTERM');
    const res = await held;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, command: null, commands: [] });
    expect(await started.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  });

  it('exits promptly on SIGTERM with a dashboard socket open, cutting it so the browser reconnects', async () => {
    // SHUTDOWN_TIMEOUT_MS is long here: the socket must not be what makes the shutdown wait.
    const started = await startMain({ DATA_DIR: tempDir(), SHUTDOWN_TIMEOUT_MS: '30000' });
    children.push(started.child);
    const base = `http://127.0.0.1:${started.port}`;
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'live@example.com', username: 'watcher', name: 'W', password: 'password123' }),
    }).then((res) => res.json() as Promise<{ token: string }>);
    const socket = connect(base, {
      path: SOCKET_PATH,
      auth: { token: registered.token },
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      const signalled = Date.now();
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
      // Not 'io server disconnect', after which socket.io-client would not try again.
      expect(await reason).toBe('transport close');
    } finally {
      socket.close();
    }
  });

  it('refuses to start with invalid settings, naming them', async () => {
    await expect(startMain({ DATA_DIR: tempDir(), PORT: 'eighty', DATABASE_URL: 'mysql://x' })).rejects.toThrow(
      /exited with 1:[\s\S]*Invalid configuration[\s\S]*PORT[\s\S]*DATABASE_URL/,
    );
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

export interface Instance {
  child: ChildProcess;
  /** Set for server instances once they listen. */
  port: number;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL: no shutdown, no flushing, as a crash. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a real Moonrelay process (`server` = main.ts, `worker` = worker-main.ts) with the given
 * settings and waits until it says it is ready. Tests kill what they start.
 */
export function startInstance(kind: 'server' | 'worker', env: Record<string, string>): Promise<Instance> {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const entry = kind === 'server' ? 'server/src/main.ts' : 'server/src/worker-main.ts';
  // Its own process group: tsx runs the server in a child process, and a crash must take both.
  const child = spawn(tsx, [entry], {
    cwd: root,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    detached: true,
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = kind === 'server' ? /"port":(\d+)/ : /worker taking jobs/;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} not ready in time:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.stdout.on('data', (more: Buffer) => (output += more.toString()));
      child.stderr.on('data', (more: Buffer) => (output += more.toString()));
      const port = match[1] ? Number(match[1]) : 0;
      resolve({
        child,
        port,
        url: `http://127.0.0.1:${port}`,
        output: () => output,
        exited,
        async crash() {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
          await exited;
        },
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A private redis-server (no persistence) on its own port, so tests can stop and restart it. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`redis-server exited:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * A call to a running instance as an API client makes it: JSON in, JSON out (text where the answer
 * is not JSON, such as /metrics), with the session token as Bearer.
 */
export async function callInstance(instance: Instance, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(instance.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (metrics are text): the text is the body.
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: parsed as any, text, headers: response.headers };
}

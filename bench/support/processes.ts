/**
 * Starting and stopping the servers a benchmark measures, as child processes in their own process
 * groups (npx -> tsx -> node), and calling them. Everything targets 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 10_000;
export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface Server {
  name: string;
  child: ChildProcess;
  /** The last lines the server printed (stdout and stderr), shown only if the benchmark fails. */
  output: string;
  exited: boolean;
  stopped: boolean;
}

export async function call<T>(
  base: string,
  method: string,
  pathname: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(base + pathname, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Starts a server in its own process group, so stopping it also stops what it spawned (npx -> tsx -> node). */
export function startServer(name: string, command: string, args: string[], env: Record<string, string>): Server {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: Server = { name, child, output: '', exited: false, stopped: false };
  const keep = (chunk: Buffer | string) => {
    server.output = (server.output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('error', (error) => {
    keep(`${error.message}\n`);
    server.exited = true;
  });
  child.once('exit', () => {
    server.exited = true;
  });
  return server;
}

export async function waitUntilReady(server: Server, url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exited) throw new Error(`${server.name} server exited before answering ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`${server.name} server did not answer ${url} within ${READY_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM to the whole process group, then SIGKILL whatever is left after STOP_TIMEOUT_MS. */
export async function stop(server: Server): Promise<void> {
  if (server.stopped) return;
  if (!server.exited && signalGroup(server, 'SIGTERM')) {
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (!server.exited && Date.now() < deadline) await sleep(50);
  }
  signalGroup(server, 'SIGKILL');
  server.stopped = true;
}

export function signalGroup(server: Server, signal: NodeJS.Signals): boolean {
  if (server.child.pid === undefined) return false;
  try {
    process.kill(-server.child.pid, signal);
    return true;
  } catch {
    return false; // The group is already gone.
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The servers of one benchmark run and what goes with them. `close()` runs the closers (clients
 * first), stops every server started and removes the temporary folders; Ctrl-C or SIGTERM does the
 * same and exits 130; and should the process end without either, the servers' process groups are
 * killed. `printOutputs()` shows what each server printed, for a run that failed.
 */
export function benchServers() {
  const servers: Server[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  const folders: string[] = [];
  let interrupted = false;
  let cleanup: Promise<void> | undefined;
  const cleanUp = () =>
    (cleanup ??= (async () => {
      await Promise.allSettled(closers.map(async (close) => close()));
      await Promise.all(servers.map(stop));
      await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    console.error(`\n${signal}: stopping the servers`);
    void cleanUp().finally(() => process.exit(130));
  };
  const onExit = () => servers.filter((s) => !s.stopped).forEach((s) => signalGroup(s, 'SIGKILL'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', onExit);

  return {
    /** Run at `close()`, before the servers stop (agents, sockets, simulated games). */
    closers,
    start(name: string, command: string, args: string[], env: Record<string, string>): Server {
      if (interrupted) throw new Error('interrupted');
      const server = startServer(name, command, args, env);
      servers.push(server);
      return server;
    },
    /** A new temporary folder, removed at `close()`. */
    async tempFolder(): Promise<string> {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'moonrelay-bench-'));
      folders.push(folder);
      return folder;
    },
    printOutputs(): void {
      for (const server of servers) {
        if (server.output.trim()) console.error(`--- ${server.name} output ---\n${server.output.trimEnd()}`);
      }
    },
    async close(): Promise<void> {
      await cleanUp();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', onExit);
    },
  };
}

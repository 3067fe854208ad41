import fs from 'node:fs';
import http from 'node:http';
import { Agent } from 'undici';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type MoonrelayApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createLogger, type Logger } from '../src/logger.ts';
import type { Engine } from './engines.ts';
import { nonconformance } from './openapi-conformance.ts';
import { loopbackOnlyNetwork } from './loopback-network.ts';

export interface TestServer {
  url: string;
  app: MoonrelayApp;
  config: Config;
  /** Calls the API over real HTTP; JSON in, JSON (or text) out. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Stops the app but keeps its database and port, as a deployed server going down. */
  stop(): Promise<void>;
  /** Starts the app again on the same port and database (after `stop`), as a deployed server restarting. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  /** Serialised as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /**
   * Skips holding the answer against the OpenAPI document (openapi-conformance.ts), for a test that
   * provokes what no document lists (an unexpected failure's 500, say); says why.
   */
  undocumentedBecause?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // Tests read fields of whatever the server sent.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/**
 * Starts the real app on an ephemeral port over a fresh database. Rate limits are raised and load
 * shedding is off so that suites about other things do not trip them; their own suites pass theirs. The HTTP server
 * serves the app's own request listener, as main.ts does. `logger` replaces the silent one, for a
 * suite that reads the log.
 */
export async function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  options: { logger?: Logger } = {},
): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-test-'));
  const database = await engine.create(dir);
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
      // Load shedding reads how busy this process is, and a test process (its own clients, the
      // machine's other test files) is busy for reasons of its own; its suite turns it on.
      GAME_SHED_LAG_MS: '0',
      ...env,
    }),
    database: database.config,
  };
  let port = 0;
  let running: { app: MoonrelayApp; server: http.Server } | undefined;
  // The calls' own connections, dropped with the server: `stop()` and `start()` restart it in this
  // same process, and a kept-alive socket from before the restart, not yet seen closed, would carry
  // the next call into "other side closed". (The process's shared pool cannot be emptied: the
  // server's own outbound requests, such as a simulated game server's pings, use it too.)
  let connections = new Agent();
  const start = async () => {
    const app = await buildApp(config, options.logger ?? createLogger(config.logLevel), {
      notificationNetwork: loopbackOnlyNetwork,
    });
    const server = http.createServer(app.requestListener);
    app.attachRealtime(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    running = { app, server };
  };
  const stop = async () => {
    if (!running) return;
    const { app, server } = running;
    running = undefined;
    app.drain();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    await connections.destroy();
    connections = new Agent();
  };
  await start();
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    get app(): MoonrelayApp {
      if (!running) throw new Error('The test server is stopped');
      return running.app;
    },
    config,
    stop,
    start,
    async call(method, requestPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      // `dispatcher` is undici's own option of Node's fetch, absent from the DOM's RequestInit.
      const init: RequestInit & { dispatcher: Agent } = { method, headers, body, dispatcher: connections };
      const response = await fetch(url + requestPath, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (the web app's HTML, for example): tests read `text`.
      }
      if (!options.undocumentedBecause) {
        const problem = nonconformance({
          method,
          path: requestPath,
          status: response.status,
          contentType: response.headers.get('content-type'),
          body: parsed,
          headers: response.headers,
        });
        if (problem) throw new Error(`The answer differs from the OpenAPI document: ${problem}`);
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await stop();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** Registers a fresh user through the API and answers their token and user. */
export async function registerUser(server: TestServer, overrides: Record<string, string> = {}) {
  counter += 1;
  const suffix = `${process.pid}${counter}${Math.floor(Math.random() * 1e6)}`;
  const body = {
    email: `user${suffix}@example.com`,
    username: `user${suffix}`.slice(0, 30),
    name: `User ${counter}`,
    password: 'correct horse battery',
    ...overrides,
  };
  const result = await server.call('POST', '/api/auth/register', { body });
  if (result.status !== 200) throw new Error(`register failed: ${result.status} ${result.text}`);
  return { token: result.body.token as string, user: result.body.user, password: body.password, input: body };
}

/**
 * The addresses a user's sign-ins were remembered from (notifications: "sign-in from a new
 * address"), once at least one is: they are noted just after the sign-in answered.
 */
export async function rememberedSignInAddresses(server: TestServer, userId: string): Promise<string[]> {
  for (;;) {
    const rows = await server.app.database.db
      .selectFrom('signInAddresses')
      .select('address')
      .where('userId', '=', userId)
      .execute();
    if (rows.length > 0) return rows.map((row) => row.address);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Roblox players `ownerId`'s game saw before, none of them online now (a factory for moderation tests). */
export async function playersSeenBefore(
  server: TestServer,
  ownerId: string,
  ids: number[],
  nameOf: (id: number) => string = (id) => `Player${id}`,
): Promise<void> {
  const now = new Date().toISOString();
  await server.app.database.db
    .insertInto('players')
    .values(
      ids.map((id) => ({ userId: ownerId, robloxUserId: String(id), name: nameOf(id), firstSeen: now, lastSeen: now })),
    )
    .execute();
}

/** How a session made directly by a test signed in: with the password, no second factor, from nowhere in particular. */
export const TEST_SIGN_IN = {
  signedInWith: 'password',
  secondFactor: null,
  device: { address: null, userAgent: null },
} as const;

/**
 * Ends sudo mode for every session of the user, as 10 minutes after their last proof: the next
 * protected change asks for a proof again.
 */
export async function endSudo(server: TestServer, userId: string): Promise<void> {
  await server.app.database.db.updateTable('sessions').set({ provedAt: null }).where('userId', '=', userId).execute();
}

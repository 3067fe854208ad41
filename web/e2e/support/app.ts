import type { Page } from 'playwright-core';
import type { User } from '@moonrelay/contract/auth';
import type { Engine } from '../../../server/test/engines.ts';
import { endSudo, startTestServer, type CallOptions, type CallResult } from '../../../server/test/test-server.ts';
import { WEB_DIST_DIR } from './paths.ts';

/** The real Moonrelay server, in this process, serving the built web app over a fresh database. */
export interface E2EApp {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  /**
   * Calls the API over real HTTP (JSON in, JSON out), as the API suites do; `headers` adds request
   * headers (the Moonrelay-Team header naming the team a call acts on).
   */
  call(method: string, path: string, options?: Pick<CallOptions, 'token' | 'body' | 'headers'>): Promise<CallResult>;
  /** Ends sudo mode for every session of the user, as 10 minutes after their last proof. */
  endSudo(userId: string): Promise<void>;
  close(): Promise<void>;
}

// SQLite in the server's temp data dir; `startTestServer` removes the folder on close.
const sqlite: Engine = {
  name: 'SQLite',
  async create(dir) {
    return { config: { kind: 'sqlite', file: `${dir}/moonrelay.db` }, drop: async () => {} };
  },
};

/**
 * Starts buildApp on 127.0.0.1, port 0, over a fresh temp SQLite database and data dir, serving
 * web/dist (call `ensureWebBuilt()` first). Rate limits are raised so the tests never trip them.
 */
export async function startApp(env: Record<string, string> = {}): Promise<E2EApp> {
  const server = await startTestServer(sqlite, {
    WEB_DIST_DIR,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
    ...env,
  });
  return {
    url: server.url,
    call: (method, path, options) => server.call(method, path, options),
    endSudo: (userId) => endSudo(server, userId),
    close: server.close,
  };
}

export interface TestUser {
  token: string;
  user: User;
  email: string;
  username: string;
  name: string;
  password: string;
}

export interface NewUserFields {
  email: string;
  username: string;
  name: string;
  password: string;
}

let counter = 0;

/** Fields for an account no other test uses (unique per process, test and run). */
export function uniqueUserFields(overrides: Partial<NewUserFields> = {}): NewUserFields {
  counter += 1;
  const suffix = `${counter}${Math.random().toString(36).slice(2, 8)}`;
  return {
    email: `e2e${suffix}@example.com`,
    username: `e2e_${suffix}`,
    name: `E2E Tester ${suffix}`,
    password: 'correct horse battery',
    ...overrides,
  };
}

/** Registers an account through POST /api/auth/register; answers its token and user. */
export async function createUser(app: E2EApp, overrides: Partial<NewUserFields> = {}): Promise<TestUser> {
  const fields = uniqueUserFields(overrides);
  const result = await app.call('POST', '/api/auth/register', { body: fields });
  if (result.status !== 200) throw new Error(`register failed: ${result.status} ${result.text}`);
  return { ...fields, token: result.body.token as string, user: result.body.user as User };
}

/** A page of the app's origin that is not the app: storage can be set there without booting it. */
export const BLANK_PATH = '/__e2e__/blank';

/** Opens the app origin without loading the app (the browser never asks the server for this). */
export async function openBlankOrigin(page: Page, origin: string): Promise<void> {
  const blank = `${origin}${BLANK_PATH}`;
  await page.route(blank, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><link rel="icon" href="data:,"><title>blank</title>',
    }),
  );
  try {
    await page.goto(blank);
  } finally {
    await page.unroute(blank);
  }
}

/**
 * Signs in as a fixture does: the session goes straight into localStorage (`token` and `user`,
 * as the app stores them), then the page opens `path`. Only the sign-in tests use the form.
 */
export async function signInAs(page: Page, app: E2EApp, user: TestUser, path = '/dashboard'): Promise<void> {
  await openBlankOrigin(page, app.url);
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: user.token, user: user.user },
  );
  await page.goto(app.url + path);
}

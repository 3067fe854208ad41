import type { User } from '@moonrelay/contract/auth';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Engine } from '../../../server/test/engines.ts';
import { startTestServer, type TestServer } from '../../../server/test/test-server.ts';
import {
  HEAVY_EMAIL,
  HEAVY_PASSWORD,
  HEAVY_USERNAME,
  seedHeavy,
  type SeedResult,
} from '../../../scripts/seed/heavy.ts';
import type { E2EApp, TestUser } from './app.ts';
import { launchBrowser, type E2EBrowser } from './browser.ts';
import { ensureWebBuilt } from './build.ts';
import { WEB_DIST_DIR } from './paths.ts';

export interface HeavySuite {
  app: E2EApp;
  browser: E2EBrowser;
  /** The heavy account, signed in (its token and user), for `signInAs`. */
  owner: TestUser;
  /** What the seed wrote: the counts, the ids of the scripts and servers, the API key. */
  seeded: SeedResult;
}

// SQLite in the server's temp data dir, as every browser spec runs; `startTestServer` removes it on close.
const sqlite: Engine = {
  name: 'SQLite',
  async create(dir) {
    return { config: { kind: 'sqlite', file: `${dir}/moonrelay.db` }, drop: async () => {} };
  },
};

/**
 * One server and one Chromium for a spec file, over the heavy account (scripts/seed/heavy.ts) at
 * `scale`: the server of the browser specs (the current web build, a fresh SQLite database, rate
 * limits raised) with the account seeded through its services once, before the file's tests, and
 * its live servers kept pinging in this process until the file ends. After each test the page
 * checks of `finishTest`, as `browserSuite` does. The returned object is filled in by `beforeAll`;
 * read its fields inside tests.
 */
export function heavyAccountSuite(scale: number): HeavySuite {
  const suite = {} as HeavySuite;
  let server: TestServer | undefined;
  let stopPresence = () => {};
  beforeAll(async () => {
    await ensureWebBuilt();
    server = await startTestServer(sqlite, {
      WEB_DIST_DIR,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
      // The seed's players seen before (2,000,000 at scale 1), above the default cap of records kept.
      PLAYER_RECORDS_MAX: '10000000',
    });
    const seeded = await seedHeavy(server.app, { scale });
    stopPresence = seeded.stopPresence;
    suite.seeded = seeded;
    const running = server;
    suite.app = {
      url: running.url,
      call: (method, path, options) => running.call(method, path, options),
      endSudo: async () => {
        throw new Error('The heavy account suite has no use for ending sudo mode');
      },
      close: () => running.close(),
    };
    const me = await suite.app.call('GET', '/api/user', { token: seeded.token });
    expect(me.status, me.text).toBe(200);
    const user = me.body as User;
    suite.owner = {
      token: seeded.token,
      user,
      email: HEAVY_EMAIL,
      username: HEAVY_USERNAME,
      name: user.name,
      password: HEAVY_PASSWORD,
    };
    suite.browser = await launchBrowser({ origin: running.url });
  });
  afterEach(async () => {
    await suite.browser?.finishTest();
  });
  afterAll(async () => {
    stopPresence();
    await suite.browser?.close();
    await server?.close();
  });
  return suite;
}

import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files share their worker's modules from file to file (`isolate: false`): a file then skips
 * importing the app, React, Chakra and the testing libraries again, which took about a third of
 * the suite's time (3 s per web file, 2 s per server file). The files that need a module graph of
 * their own run in a project beside: those that replace a module (`vi.mock`), and the one that
 * checks what importing a module first does.
 */
function needOwnModules(...roots: string[]): string[] {
  return roots
    .flatMap((root) => (fs.readdirSync(root, { recursive: true }) as string[]).map((file) => path.join(root, file)))
    .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes('node_modules'))
    .filter(
      (file) =>
        file.endsWith('zod-without-eval.test.ts') ||
        /\bvi\.(mock|doMock|resetModules)\(/.test(fs.readFileSync(file, 'utf8')),
    );
}

const SERVER_TESTS = [
  'contract/**/*.test.ts',
  'server/**/*.test.ts',
  'sandbox/**/*.test.ts',
  'lua/**/*.test.ts',
  // The web build's own plugins run in Node.
  'web/build/**/*.test.ts',
  // The moonrelay command, run as a child process against a real server.
  'cli/**/*.test.ts',
];
const serverOwnModules = needOwnModules('contract', 'server', 'sandbox', 'lua', 'web/build');
const WEB_TESTS = 'web/src/**/*.test.{ts,tsx}';
const webOwnModules = needOwnModules('web/src');

/**
 * The server and contract suites (node), the web app's component tests (jsdom), each beside its
 * files that need modules of their own, and the browser tests (*.spec.ts: Playwright driving
 * Chromium against the real built server).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three files at a time on two cores: most of a server file's time is spent waiting (on emulated
    // game time, leases, child processes, the database), not computing. Measured on this machine,
    // the server project took 433 s with two workers (using about one core) and 338 s with three.
    maxWorkers: 3,
    // In CI the run's timings are kept too, for the slowest-files report .ci/run prints at its end;
    // `npm run test:load` names a report of its own for each run (VITEST_JSON_REPORT).
    reporters:
      process.env.CI || process.env.VITEST_JSON_REPORT
        ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT ?? 'test-results/vitest.json' }]]
        : ['default'],
    // `npm run test:coverage`: statement and branch coverage of the shipped code, summed per file in
    // coverage/coverage-summary.json so two runs can be compared (bench/support/coverage-compare.ts),
    // and line by line in coverage/coverage-final.json to see what a file lost.
    coverage: {
      provider: 'v8',
      include: [
        'contract/src/**/*.ts',
        'server/src/**/*.ts',
        'sandbox/src/**/*.ts',
        'lua/**/*.ts',
        'web/src/**/*.{ts,tsx}',
        'web/build/**/*.ts',
      ],
      exclude: ['**/*.test.{ts,tsx}', '**/*.spec.ts', '**/*.d.ts', 'web/src/test/**'],
      reporter: ['text-summary', 'json-summary', 'json'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: SERVER_TESTS,
          exclude: [...configDefaults.exclude, ...serverOwnModules],
          isolate: false,
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server-own-modules',
          include: serverOwnModules,
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: [WEB_TESTS],
          exclude: [...configDefaults.exclude, ...webOwnModules],
          environment: 'jsdom',
          // Worker threads start a file's jsdom and imports about a third faster than forked
          // processes, and these files share nothing a thread would not (no process.env, no chdir).
          pool: 'threads',
          isolate: false,
          setupFiles: ['web/src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web-own-modules',
          include: webOwnModules,
          environment: 'jsdom',
          pool: 'threads',
          setupFiles: ['web/src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['web/e2e/**/*.spec.ts'],
          environment: 'node',
          // Each spec starts a server in process: sharing modules from file to file spares it
          // importing the server app and Playwright again (measured on 9 specs: 52 s of summed
          // import time down to 17 s, and 52 CPU seconds down to 38). Every spec's state is its own
          // (support/suite.ts: its server, its database, its browser context).
          isolate: false,
          testTimeout: 120_000,
          // As long as Playwright's own waits (10 s): the default 1 s is shorter than a tab that
          // mounts a long panel takes to render on a loaded two-core machine.
          expect: { poll: { timeout: 10_000 } },
          // One Chromium for the run (each test gets a context of its own in it); every file starts
          // its own server on a port of its own, so the files run in parallel like the others.
          globalSetup: ['web/e2e/support/chromium-server.ts'],
          // No worker count of its own: a project with one runs as a group of its own, alone, and the
          // browser files then kept both cores for 440 s while the server files waited. In one group
          // with them, a server file's waits (emulated game time, leases, child processes) leave the
          // CPU to a page that renders.
        },
      },
    ],
  },
});

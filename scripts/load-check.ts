/**
 * `npm run test:load`: the suite on a machine whose cores are busy. It starts a CPU hog
 * (`stress-ng --cpu 2`, which also stops by itself at a time limit), runs the whole suite once under
 * it, then five times each the files that have failed under load before, and stops the hog. A test
 * that waits on time instead of on its event fails here first. CI runs the plain suite; this is
 * for contributors before they push a change to the suite or to timing-sensitive code
 * (docs/contributing.md).
 *
 * The environment passes through: set TEST_POSTGRES_URL (and CI=true) to include the PostgreSQL
 * variants as CI does. Logs and vitest's JSON reports land in test-results/load-check/.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'test-results/load-check');

/** Files that failed under load at least once (each one's cause is fixed; this keeps them honest). */
const FAILED_UNDER_LOAD_BEFORE = [
  'server/src/scale-out.test.ts',
  'server/src/modules/notifications/notifications.api.test.ts',
  'server/src/modules/executions/hostile.api.test.ts',
  'server/src/modules/lua-tools/lua-tools.service.test.ts',
  'server/test/roblox-emulation/emulated-game.test.ts',
  'web/src/features/game/panel/GamePanel.test.tsx',
  'web/src/features/players/components/PlayersScreen.test.tsx',
  'web/src/features/teams/components/TeamSwitcher.test.tsx',
  'server/src/modules/simulator/simulator.api.test.ts',
  'server/src/modules/catalogue/catalogue-upstream.test.ts',
  'server/src/modules/players/player-limits.api.test.ts',
  'web/e2e/admin.spec.ts',
  'web/e2e/api-docs.spec.ts',
  'web/e2e/editor.spec.ts',
  'web/e2e/notifications.spec.ts',
  'web/e2e/phone.spec.ts',
  'web/e2e/players.spec.ts',
  'web/e2e/sign-in.spec.ts',
];
const REPEATS = 5;
/** The whole check stops here, whatever is still running; stress-ng's own limit is a little later. */
const DEADLINE_MS = 75 * 60_000;

interface FileReport {
  name: string;
  status: string;
}

function hasStressNg(): boolean {
  return spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
}

const started = Date.now();
/** Every child runs in a process group of its own, so stopping it stops what it started too. */
const running = new Set<ChildProcess>();
const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
};
const stopAll = () => {
  for (const child of running) stop(child);
};
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Runs vitest with its output in a log file; answers the exit code and each file's status. */
async function vitest(label: string, files: string[]): Promise<{ code: number; seconds: number; files: FileReport[] }> {
  const log = path.join(OUT, `${label}.log`);
  const report = path.join(OUT, `${label}.json`);
  const began = Date.now();
  fs.rmSync(report, { force: true });
  const child = spawn('npx', ['vitest', 'run', ...files], {
    cwd: ROOT,
    env: { ...process.env, VITEST_JSON_REPORT: report },
    stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')],
    detached: true,
  });
  running.add(child);
  const left = DEADLINE_MS - (Date.now() - started);
  const timer = setTimeout(
    () => {
      console.log(`  ${label}: past the check's ${DEADLINE_MS / 60_000} minutes, stopped`);
      stop(child);
    },
    Math.max(left, 0),
  );
  const code = await new Promise<number>((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
  clearTimeout(timer);
  running.delete(child);
  let reported: FileReport[] = [];
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { testResults: FileReport[] };
    reported = json.testResults.map((file) => ({ name: path.relative(ROOT, file.name), status: file.status }));
  } catch {
    // No report: the run was stopped or could not start; the exit code says it failed.
  }
  return { code, seconds: (Date.now() - began) / 1000, files: reported };
}

if (!hasStressNg()) {
  console.error('stress-ng is not installed: apt-get install -y stress-ng (bash .ci/run installs it).');
  process.exit(2);
}
fs.mkdirSync(OUT, { recursive: true });

const hog = spawn('stress-ng', ['--cpu', '2', '--timeout', `${DEADLINE_MS / 1000 + 60}s`, '--quiet'], {
  stdio: 'ignore',
  detached: true,
});
running.add(hog);
console.log(`CPU hog: stress-ng --cpu 2 (pid ${hog.pid}).`);

console.log('The whole suite under load...');
const suite = await vitest('suite', []);
const suiteFailed = suite.files.filter((file) => file.status !== 'passed');
console.log(
  `  ${suite.code === 0 ? 'green' : 'FAILED'}: ${suite.files.length} files in ${suite.seconds.toFixed(0)} s` +
    (suiteFailed.length ? `; failed: ${suiteFailed.map((file) => file.name).join(', ')}` : ''),
);

console.log(`The ${FAILED_UNDER_LOAD_BEFORE.length} files that failed under load before, ${REPEATS} times each...`);
const green = new Map(FAILED_UNDER_LOAD_BEFORE.map((file) => [file, 0]));
let repeatsFailed = false;
for (let round = 1; round <= REPEATS; round++) {
  const result = await vitest(`repeat-${round}`, FAILED_UNDER_LOAD_BEFORE);
  for (const file of result.files) if (file.status === 'passed') green.set(file.name, (green.get(file.name) ?? 0) + 1);
  if (result.code !== 0) repeatsFailed = true;
  console.log(`  round ${round}: ${result.code === 0 ? 'green' : 'FAILED'} in ${result.seconds.toFixed(0)} s`);
}
stop(hog, 'SIGTERM');
running.delete(hog);

for (const [file, count] of green) console.log(`  ${count}/${REPEATS} green  ${file}`);
const minutes = (Date.now() - started) / 60_000;
const ok = suite.code === 0 && !repeatsFailed;
console.log(
  `Load check ${ok ? 'green' : 'FAILED'} in ${minutes.toFixed(1)} minutes (logs: ${path.relative(ROOT, OUT)}/).`,
);
process.exit(ok ? 0 : 1);

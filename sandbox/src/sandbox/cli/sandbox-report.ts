/**
 * Prints how the sandbox stops each hostile case (with the default limits) and what a run costs:
 * fib(27) with the instruction limit on, against Debian's lua5.4 when it is installed, and the
 * per-run overhead (fresh state + trivial script, median of 50). `npm run bench -- sandbox` has
 * the breakdown of where the time goes.
 *
 *   npx tsx sandbox/src/sandbox/cli/sandbox-report.ts
 */
import { spawnSync } from 'node:child_process';
import { HOSTILE_CASES } from '../hostile-cases.ts';
import { runLua, warmUpSandbox } from '../run-lua.ts';
import { runInThread } from '../thread-harness.ts';

const HARD_DEADLINE_MS = 3000;
const FIB = 'local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end';
const TIMED_FIB = `${FIB} local started = os.clock() local value = fib(27) return value, (os.clock() - started) * 1000`;
const NATIVE_FIB = `${FIB} local started = os.clock() fib(27) print((os.clock() - started) * 1000)`;
/** Busy scripts of different kinds, each run to the default instruction limit or deadline. */
const WORKLOADS: ReadonlyArray<readonly [string, string]> = [
  ['empty loop', 'while true do end'],
  ['arithmetic', 'local x = 0 while true do x = (x * 3 + 7) % 1000003 end'],
  ['function calls', 'local function f(a) return a + 1 end local x = 0 while true do x = f(x) end'],
  ['recursion (fib)', `${FIB} while true do fib(20) end`],
  ['task.wait loop', 'while true do task.wait(1) end'],
  [
    'method calls + objects',
    'local P = {} P.__index = P function P.new(x) return setmetatable({ x = x }, P) end function P:get() return self.x end while true do P.new(1):get() end',
  ],
  ['string building', 'local i = 0 while true do i = i + 1 local s = tostring(i) .. "x" end'],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`).join('\n');
}

async function hostileReport(): Promise<void> {
  const rows = [['case', 'stopped by', 'ms']];
  for (const hostile of HOSTILE_CASES) {
    if (hostile.stoppedBy === 'hard-deadline') {
      const run = await runInThread(hostile.code, { hardDeadlineMs: HARD_DEADLINE_MS });
      const how = run.terminated ? `thread terminated at the ${HARD_DEADLINE_MS} ms hard deadline` : 'answered (!)';
      rows.push([hostile.name, how, run.elapsedMs.toFixed(0)]);
      continue;
    }
    const started = performance.now();
    const result = await runLua(hostile.code);
    const elapsed = performance.now() - started;
    const how =
      result.limit !== null
        ? `limit ${result.limit}: ${result.error ?? ''}`
        : result.success
          ? `ran harmlessly: returns ${result.returns.join(', ')}`
          : `error: ${result.error ?? ''}`;
    rows.push([hostile.name, how.length > 90 ? `${how.slice(0, 87)}...` : how, elapsed.toFixed(0)]);
  }
  console.log(table(rows));
}

async function measurements(): Promise<void> {
  const fibRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    const result = await runLua(`${TIMED_FIB}`);
    fibRuns.push(Number(result.returns[1]));
  }
  console.log(
    `fib(27) in the sandbox: median ${median(fibRuns).toFixed(1)} ms of 5 (${fibRuns.map((ms) => ms.toFixed(0)).join(', ')})`,
  );

  const native = spawnSync('lua5.4', ['-e', NATIVE_FIB], { encoding: 'utf8' });
  console.log(
    native.status === 0
      ? `fib(27) in Debian lua5.4: ${Number(native.stdout).toFixed(1)} ms`
      : 'fib(27) in Debian lua5.4: not installed (apt-get install -y lua5.4)',
  );

  const trivial: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await runLua('return 1');
    trivial.push(performance.now() - started);
  }
  console.log(
    `fresh state + libraries + prelude + trivial script + close: median ${median(trivial).toFixed(2)} ms of 50`,
  );

  const rows = [['busy script', 'stopped by', 'ms']];
  for (const [name, code] of WORKLOADS) {
    const result = await runLua(code);
    rows.push([name, result.limit ?? 'nothing', String(result.durationMs)]);
  }
  console.log('');
  console.log(table(rows));
}

await warmUpSandbox();
await hostileReport();
console.log('');
await measurements();

/**
 * Luau in the sandbox: `npm run bench -- luau-sandbox [--runs N]`.
 *
 * 1. What parsing and lowering Luau (lua/luau/compile.ts) adds to a run: a small script and a
 *    100 KB one, each against the whole run of the small script (runLua, warm thread) measured in
 *    the same process.
 * 2. What the lowered constructs cost at run time, 200,000 iterations each inside the sandbox,
 *    against the plain Lua that would do the same: if-expressions (and/or, boxed, hoisted to an if
 *    statement) against a closure per evaluation, `%` through its helper against inline `//`
 *    arithmetic, `..` of a number against `..` of a string.
 */
import { parseArgs } from 'node:util';
import { buildValidScript, ownCorpus, sharedCorpus } from '@moonrelay/lua/luau/corpus.test-support.ts';
import { compileLuau } from '@moonrelay/lua/luau/compile.ts';
import { lowerLuau } from '../lua/luau/lower.ts';
import { parseLuau } from '../lua/luau/parser.ts';
import { runLua, warmUpSandbox } from '../sandbox/src/sandbox/run-lua.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const SMALL = 'local total = 0\nfor i = 1, 10 do total += i end\nprint(`total {total}`)';
// Small enough for the slowest case (number formatting) to stay inside the 3 s deadline.
const ITERATIONS = 200_000;

function timeMs(action: () => void, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    action();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function compileOverhead(runs: number): Promise<void> {
  const big = buildValidScript(100_000, sharedCorpus() ?? ownCorpus());
  // Warm the parser and the lowering before timing.
  for (let i = 0; i < 5; i++) compileLuau(big);
  const smallCompile = timeMs(() => compileLuau(SMALL), runs * 10);
  const bigParse = timeMs(() => parseLuau(big), runs);
  const parsed = parseLuau(big);
  const bigLower = timeMs(() => lowerLuau(parsed.chunk), runs);
  const runSamples: number[] = [];
  for (let i = 0; i < runs * 5; i++) {
    const started = performance.now();
    const result = await runLua(SMALL);
    if (!result.success) throw new Error(`the small script failed: ${result.error}`);
    runSamples.push(performance.now() - started);
  }
  const smallRun = median(runSamples);
  console.log('Parse + lower, median:');
  console.log(
    `  small script (${SMALL.length} B): ${fmt(smallCompile, 3)} ms = ${fmt((smallCompile / smallRun) * 100, 1)} % of its whole run (${fmt(smallRun, 2)} ms)`,
  );
  console.log(
    `  100 KB script (${big.length} B): parse ${fmt(bigParse, 1)} ms + lower ${fmt(bigLower, 1)} ms = ${fmt(bigParse + bigLower, 1)} ms`,
  );
}

/**
 * Milliseconds the loop body takes for ITERATIONS rounds, timed inside the sandbox. `native` runs
 * the loop as Lua 5.4 text through load (no lowering: integer loop counter, Lua's own formatting).
 */
async function loopMs(setup: string, body: string, runs: number, native = false): Promise<number> {
  const loop = `${setup}\nlocal started = os.clock()\nfor i = 1, ${ITERATIONS} do\n${body}\nend\nreturn (os.clock() - started) * 1000`;
  const code = native ? `return load([[${loop}]])()` : loop;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const result = await runLua(code);
    if (!result.success) throw new Error(`bench loop failed: ${result.error}\n${code}`);
    samples.push(Number(result.returns[0]));
  }
  return median(samples);
}

async function constructCosts(runs: number): Promise<void> {
  const setup = 'local sink = nil local flag = true local x, y = "x", nil local seven = 7 local function f() end';
  const cases: Array<[string, string, string, boolean?]> = [
    ['baseline: if statement', 'if flag then sink = 1 else sink = 2 end', setup],
    ['if-expression, whole value (local v = if ...)', 'local v = if flag then x else y sink = v', setup],
    ['baseline: { value }', 'sink = { y }', setup],
    ['if-expression, computed before its statement', 'sink = { if flag then y else x }', setup],
    ['if-expression, truthy branches (and/or)', 'sink = { f(), if flag then 1 else 2 }', setup],
    ['baseline: { f(), value }', 'sink = { f(), y }', setup],
    ['if-expression after a call (boxed)', 'sink = { f(), if flag then y else x }', setup],
    [
      'closure per evaluation (what lowering avoids)',
      'sink = { f(), (function() if flag then return y else return x end end)() }',
      setup,
    ],
    ['a % b (helper: variable divisor)', 'sink = i % seven', setup],
    ['a % 7 (Lua operator: literal divisor)', 'sink = i % 7', setup],
    ['"a" .. number (formatted as Luau)', 'sink = "a" .. i', setup],
    ['"a" .. (number + 0.5) (fraction, formatted as Luau)', 'sink = "a" .. (i + 0.5)', setup],
    ['"a" .. string', 'sink = "a" .. x', setup],
    ['Lua 5.4: "a" .. integer (unlowered, via load)', 'sink = "a" .. i', setup, true],
    ['Lua 5.4: "a" .. (number + 0.5) (unlowered)', 'sink = "a" .. (i + 0.5)', setup, true],
    ['Lua 5.4: a % 7 on an integer (unlowered)', 'sink = i % 7', setup, true],
  ];
  console.log(`Run-time cost in the sandbox, ${ITERATIONS.toLocaleString('en')} iterations, median of ${runs}:`);
  for (const [name, body, caseSetup, native] of cases) {
    const ms = await loopMs(caseSetup, body, runs, native);
    console.log(`  ${name.padEnd(48)} ${fmt(ms, 1).padStart(8)} ms`);
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '5' } } });
  const runs = positiveInteger('--runs', values.runs);
  await warmUpSandbox();
  await compileOverhead(runs);
  await constructCosts(runs);
}

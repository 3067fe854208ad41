/**
 * Sandbox benchmark: `npm run bench -- sandbox [--runs N] [--seconds N] [--rounds N]`.
 *
 * 1. Three loops (fib(27), string building, table building) in the sandbox through the pool,
 *    beside Debian's native `lua5.4` in the same run, interleaved, each timed inside Lua so start-up
 *    is not counted; target ratio for fib <= 1.6. Beside them, in this process, wasmoon as it was
 *    used before the memory meter (JS allocator for the cap + the count hook) and its parts alone:
 *    where the sandbox's time goes, measured in the same run.
 * 2. A trivial run through the pool (thread messaging + a prepared state) and through runLua.
 * 3. Round trip of a small script through the real API (POST /api/scripts/execute, target sandbox)
 *    one at a time: p50 and p99; target p50 <= 3 ms.
 * 4. Runs per second with the pool saturated (autocannon, 8 connections); target >= 300 on 2 cores.
 * 5. Check of a 100 KB script through POST /api/lua/check (median of 10); target <= 150 ms.
 * The server runs as a child process over a fresh data folder; everything targets 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { LuaEventMasks, LuaFactory, type LuaWasm } from 'wasmoon';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { createSandboxPool } from '@moonrelay/sandbox/pool/sandbox-pool';
import { runLua, warmUpSandbox } from '@moonrelay/sandbox/sandbox/run-lua';
import { call, freePort, HOST, repoRoot, startServer, stop, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const FIB = 'local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end';
/** Each loop's set-up and its timed part; both sides time the part with os.clock inside Lua. */
const LOOPS = [
  { name: 'fib(27)', setup: FIB, body: 'fib(27)' },
  {
    name: 'string building',
    setup: '',
    body: 'local parts = {} for i = 1, 200000 do parts[#parts + 1] = "item" .. i .. ";" end local s = table.concat(parts)',
  },
  {
    name: 'table building',
    setup: '',
    body: 'local acc = 0 for i = 1, 200000 do local p = { x = i, y = i * 2, z = { i } } acc = acc + p.x + p.y + p.z[1] end',
  },
] as const;
type Loop = (typeof LOOPS)[number];

const timed = (loop: Loop) => `${loop.setup} local t = os.clock() ${loop.body} return (os.clock() - t) * 1000`;

/** Milliseconds of the loop in native Lua 5.4; null when lua5.4 is not installed. */
function nativeMs(loop: Loop): number | null {
  try {
    const code = `print((function() ${timed(loop)} end)())`;
    return Number(execFileSync('lua5.4', ['-e', code], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}

/**
 * wasmoon configured by hand, for the breakdown: a state with the standard libraries and no
 * prelude, optionally with the JS allocator that counted the cap before (traceAllocations) and the
 * count hook every 1,000 instructions calling into JS as the sandbox's does.
 */
interface WasmoonConfig {
  jsAllocator: boolean;
  hook: boolean;
}

async function wasmoonMs(factory: LuaFactory, lua: LuaWasm, hookPointer: number, loop: Loop, config: WasmoonConfig) {
  const engine = await factory.createEngine({ traceAllocations: config.jsAllocator, enableProxy: false });
  try {
    if (config.jsAllocator) engine.global.setMemoryMax(64 * 1024 * 1024);
    if (config.hook) lua.lua_sethook(engine.global.address, hookPointer, LuaEventMasks.Count, 1000);
    return Number(engine.doStringSync(timed(loop)));
  } finally {
    engine.global.close();
  }
}

const CONFIGS: ReadonlyArray<readonly [string, WasmoonConfig]> = [
  ['wasmoon, no limits', { jsAllocator: false, hook: false }],
  ['wasmoon + JS allocator', { jsAllocator: true, hook: false }],
  ['wasmoon + count hook', { jsAllocator: false, hook: true }],
  ['wasmoon + both (sandbox before)', { jsAllocator: true, hook: true }],
];

interface LoopResult {
  loop: Loop;
  sandboxMs: number;
  nativeMs: number | null;
  configMs: number[];
}

async function loops(
  rounds: number,
): Promise<{ results: LoopResult[]; trivialPoolMs: number; trivialDirectMs: number }> {
  const pool = createSandboxPool({ size: 1 });
  const factory = new LuaFactory();
  const lua = await factory.getLuaModule();
  // The sandbox's hook does this much per call: note the call and read the clock.
  let hookCalls = 0;
  const hookPointer = (lua.module as unknown as { addFunction(fn: () => void, signature: string): number }).addFunction(
    () => {
      hookCalls += performance.now() > 0 ? 1 : 0;
    },
    'vii',
  );
  try {
    // Warm both sides (V8 optimises the interpreter loop after it has run hot).
    await warmUpSandbox();
    for (const loop of LOOPS) {
      for (let i = 0; i < 2; i++) {
        await pool.run('bench', { code: timed(loop) });
        for (const [, config] of CONFIGS) await wasmoonMs(factory, lua, hookPointer, loop, config);
      }
    }
    const results: LoopResult[] = [];
    for (const loop of LOOPS) {
      const sandbox: number[] = [];
      const native: number[] = [];
      const configs: number[][] = CONFIGS.map(() => []);
      for (let i = 0; i < rounds; i++) {
        const result = await pool.run('bench', { code: timed(loop) });
        if (!result.success) throw new Error(`${loop.name} in the sandbox failed: ${result.error}`);
        sandbox.push(Number(result.returns[0]));
        const ms = nativeMs(loop);
        if (ms !== null) native.push(ms);
        for (const [index, [, config]] of CONFIGS.entries()) {
          configs[index]?.push(await wasmoonMs(factory, lua, hookPointer, loop, config));
        }
      }
      results.push({
        loop,
        sandboxMs: median(sandbox),
        nativeMs: native.length ? median(native) : null,
        configMs: configs.map(median),
      });
    }

    const trivialPool: number[] = [];
    const trivialDirect: number[] = [];
    for (let i = 0; i < 200; i++) {
      let started = performance.now();
      await pool.run('bench', { code: 'return 1' });
      trivialPool.push(performance.now() - started);
      started = performance.now();
      await runLua('return 1');
      trivialDirect.push(performance.now() - started);
    }
    if (hookCalls === 0) throw new Error('the breakdown hook never ran');
    return { results, trivialPoolMs: median(trivialPool), trivialDirectMs: median(trivialDirect) };
  } finally {
    await pool.close();
  }
}

/** One table per loop: the sandbox, the hand-configured wasmoon variants and native Lua, with ratios to native. */
function printLoops(results: LoopResult[]): void {
  const versus = (ms: number, native: number | null) => (native ? `${fmt(ms / native, 2)}x` : '');
  const nativeMissing = results.some((result) => result.nativeMs === null);
  if (nativeMissing) console.log('lua5.4 is not installed (apt-get install lua5.4): sandbox numbers only');
  for (const result of results) {
    const rows: [string, number][] = [
      ['sandbox (through the pool)', result.sandboxMs],
      ...CONFIGS.map(([name], index): [string, number] => [name, result.configMs[index] ?? NaN]),
    ];
    if (result.nativeMs !== null) rows.push(['native lua5.4', result.nativeMs]);
    console.log(`${result.loop.name} (median ms)`);
    for (const [name, ms] of rows) {
      console.log(`  ${name.padEnd(34)} ${fmt(ms, 1).padStart(8)}  ${versus(ms, result.nativeMs).padStart(7)}`);
    }
  }
  console.log('');
}

/** About 100 KB of real Luau: valid corpus files, each in its own block so their locals do not clash. */
function hundredKilobyteScript(): string {
  const folder = path.resolve(repoRoot, '../shared/corpus/luau/valid');
  let code = '';
  for (const file of fs.readdirSync(folder).sort()) {
    if (code.length >= 100 * 1024) break;
    code += `do\n${fs.readFileSync(path.join(folder, file), 'utf8')}\nend\n`;
  }
  return code;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '300' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '7' },
    },
  });
  const runs = positiveInteger('--runs', values.runs);
  const seconds = positiveInteger('--seconds', values.seconds);
  const rounds = positiveInteger('--rounds', values.rounds);

  const measured = await loops(rounds);
  printLoops(measured.results);
  console.log(
    `trivial run (return 1): through the pool ${fmt(measured.trivialPoolMs, 2)} ms, runLua in-process ${fmt(measured.trivialDirectMs, 2)} ms (medians of 200)\n`,
  );

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'moonrelay-bench-'));
  const port = await freePort();
  const server = startServer('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '100000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '100000000',
    RATE_LIMIT_EXECUTION_PER_MINUTE: '100000000',
  });
  const base = `http://${HOST}:${port}`;
  try {
    await waitUntilReady(server, `${base}/api/openapi.json`);
    const { token } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
      email: 'bench@example.com',
      username: 'bench',
      name: 'Bench',
      password: 'bench password',
    });
    const execute = { code: 'local n = 0 for i = 1, 10 do n = n + i end return n', target: 'sandbox' };

    // 2. Round trip, one request at a time, beside GET /api/user measured the same way (what the
    //    HTTP client, the server's middleware and a database read cost without any Lua).
    for (let i = 0; i < 20; i++) await call(base, 'POST', '/api/scripts/execute', execute, token);
    const roundTrips: number[] = [];
    const plainTrips: number[] = [];
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      await call(base, 'POST', '/api/scripts/execute', execute, token);
      roundTrips.push(performance.now() - started);
      started = performance.now();
      await call(base, 'GET', '/api/user', undefined, token);
      plainTrips.push(performance.now() - started);
    }

    // 3. Saturated pool.
    const saturated = await autocannon({
      url: `${base}/api/scripts/execute`,
      method: 'POST',
      connections: 8,
      duration: seconds,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(execute),
    });

    // 4. Syntax check of 100 KB.
    const big = hundredKilobyteScript();
    for (let i = 0; i < 3; i++) await call(base, 'POST', '/api/lua/check', { code: big }, token);
    const checks: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const answer = await call<{ ok: boolean }>(base, 'POST', '/api/lua/check', { code: big }, token);
      checks.push(performance.now() - started);
      if (!answer.ok) throw new Error('the 100 KB corpus script did not pass the check');
    }

    const fib = measured.results[0]!;
    const ratio = fib.nativeMs ? fib.sandboxMs / fib.nativeMs : null;
    const rows: [string, string, string, boolean | null][] = [
      [
        'fib(27) sandbox / native lua5.4',
        ratio === null
          ? 'lua5.4 missing (apt-get install lua5.4)'
          : `${fmt(fib.sandboxMs, 1)} / ${fmt(fib.nativeMs!, 1)} ms = ${fmt(ratio, 2)}x`,
        '<= 1.6x',
        ratio === null ? null : ratio <= 1.6,
      ],
      [
        'API round trip p50 / p99',
        `${fmt(percentile(roundTrips, 0.5), 2)} / ${fmt(percentile(roundTrips, 0.99), 2)} ms`,
        'p50 <= 3 ms',
        percentile(roundTrips, 0.5) <= 3,
      ],
      ['GET /api/user p50 (baseline)', `${fmt(percentile(plainTrips, 0.5), 2)} ms`, '', null],
      [
        'runs per second, pool saturated',
        `${fmt(saturated.requests.average, 0)} (non-2xx ${saturated.non2xx})`,
        '>= 300',
        saturated.requests.average >= 300,
      ],
      [`check of ${fmt(big.length / 1024, 0)} KB`, `${fmt(median(checks), 1)} ms`, '<= 150 ms', median(checks) <= 150],
    ];
    for (const [label, value, target, ok] of rows) {
      console.log(
        `${label.padEnd(34)} ${value.padEnd(40)} target ${target.padEnd(12)} ${ok === null ? '' : ok ? 'met' : 'MISSED'}`,
      );
    }
    console.log(
      `RESULT ${JSON.stringify({
        bench: 'sandbox',
        loops: measured.results.map((result) => ({
          loop: result.loop.name,
          sandboxMs: result.sandboxMs,
          nativeMs: result.nativeMs,
          ratio: result.nativeMs ? result.sandboxMs / result.nativeMs : null,
          ...Object.fromEntries(CONFIGS.map(([name], index) => [name, result.configMs[index]])),
        })),
        trivialPoolMs: measured.trivialPoolMs,
        trivialDirectMs: measured.trivialDirectMs,
        roundTripP50Ms: percentile(roundTrips, 0.5),
        roundTripP99Ms: percentile(roundTrips, 0.99),
        plainRoundTripP50Ms: percentile(plainTrips, 0.5),
        saturatedRunsPerSecond: saturated.requests.average,
        saturatedNon2xx: saturated.non2xx,
        check100KbMedianMs: median(checks),
      })}`,
    );
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

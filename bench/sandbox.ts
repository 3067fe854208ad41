/**
 * Sandbox benchmark: `npm run bench -- sandbox [--runs N] [--seconds N]`.
 *
 * 1. fib(27) in the sandbox (wasmoon with the instruction hook and allocation tracing on) beside
 *    Debian's native `lua5.4` in the same run, interleaved; target ratio <= 1.6.
 * 2. Round trip of a small script through the real API (POST /api/scripts/execute, target sandbox)
 *    one at a time: p50 and p99; target p50 <= 3 ms.
 * 3. Runs per second with the pool saturated (autocannon, 8 connections); target >= 300 on 2 cores.
 * 4. Check of a 100 KB script through POST /api/lua/check (median of 10); target <= 150 ms.
 * The server runs as a child process over a fresh data folder; everything targets 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { createSandboxPool } from '@moonrelay/worker/pool/sandbox-pool';
import { call, freePort, HOST, repoRoot, startServer, stop, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const FIB = 'local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end';
const FIB_ROUNDS = 7;

/** Milliseconds of fib(27) in native Lua 5.4, timed inside Lua so process start-up is not counted. */
function nativeFib(): number | null {
  try {
    const out = execFileSync('lua5.4', ['-e', `${FIB} local t = os.clock() fib(27) print((os.clock() - t) * 1000)`], {
      encoding: 'utf8',
    });
    return Number(out.trim());
  } catch {
    return null;
  }
}

async function fibRatio() {
  const pool = createSandboxPool({ size: 1 });
  try {
    const sandbox: number[] = [];
    const native: number[] = [];
    // Warm the thread (V8 optimises the interpreter loop after it has run hot).
    for (let i = 0; i < 2; i++) await pool.run('bench', { code: `${FIB} return fib(27)` });
    for (let i = 0; i < FIB_ROUNDS; i++) {
      const result = await pool.run('bench', {
        code: `${FIB} local t = os.clock() fib(27) return (os.clock() - t) * 1000`,
      });
      if (!result.success) throw new Error(`fib in the sandbox failed: ${result.error}`);
      sandbox.push(Number(result.returns[0]));
      const nativeMs = nativeFib();
      if (nativeMs !== null) native.push(nativeMs);
    }
    return { sandboxMs: median(sandbox), nativeMs: native.length ? median(native) : null };
  } finally {
    await pool.close();
  }
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
    options: { runs: { type: 'string', default: '300' }, seconds: { type: 'string', default: '5' } },
  });
  const runs = positiveInteger('--runs', values.runs);
  const seconds = positiveInteger('--seconds', values.seconds);

  const fib = await fibRatio();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'moonrelay-bench-'));
  const port = await freePort();
  const server = startServer('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '100000000',
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
        fibSandboxMs: fib.sandboxMs,
        fibNativeMs: fib.nativeMs,
        fibRatio: ratio,
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

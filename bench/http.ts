/**
 * HTTP benchmark: `npm run bench -- http [--duration N] [--rounds N]`.
 *
 * Measures requests/second and p99 latency (autocannon, 10 connections) of three targets:
 *   - baseline: a bare node:http server answering {"hello":"world"};
 *   - user:     Moonrelay's GET /api/user with a session token;
 *   - scripts:  Moonrelay's GET /api/scripts for a user with 50 scripts.
 * Both servers run as child processes, so the load generator never shares their event loop.
 *
 * Why a baseline in the same run: the machines are shared and noisy, so absolute numbers move from
 * run to run. The baseline suffers the same noise, so compare the ratios to it, not the absolute
 * numbers. For the same reason the targets are interleaved in every round and medians are reported.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';
import type { AuthResponse } from '@moonrelay/contract/auth';

const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const SCRIPT_COUNT = 50;

const HELLO_SERVER = `
const body = JSON.stringify({ hello: 'world' });
require('node:http')
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '${HOST}');
`;

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

interface Sample {
  rps: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } },
  });
  const duration = positiveInteger('--duration', values.duration);
  const rounds = positiveInteger('--rounds', values.rounds);

  const servers = benchServers();

  try {
    const helloPort = await freePort();
    const hello = servers.start('hello', process.execPath, ['-e', HELLO_SERVER], { PORT: String(helloPort) });
    const helloUrl = `http://${HOST}:${helloPort}/`;

    const dataDir = await servers.tempFolder();
    const port = await freePort();
    const moonrelay = servers.start('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000000',
      NODE_ENV: 'production',
    });
    const base = `http://${HOST}:${port}`;

    await Promise.all([waitUntilReady(hello, helloUrl), waitUntilReady(moonrelay, `${base}/api/openapi.json`)]);
    const token = await seed(base);
    const auth = { authorization: `Bearer ${token}` };
    const targets: Target[] = [
      { name: 'baseline', url: helloUrl },
      { name: 'user', url: `${base}/api/user`, headers: auth },
      { name: 'scripts', url: `${base}/api/scripts`, headers: auth },
    ];

    console.log(
      `HTTP benchmark: ${rounds} round(s) x ${duration} s per target (after a ${WARMUP_SECONDS} s warm-up), ` +
        `${CONNECTIONS} connections`,
    );
    const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const target of targets) {
        await load(target, WARMUP_SECONDS);
        const sample = await load(target, duration);
        samples.get(target.name)?.push(sample);
        console.log(
          `  round ${round}/${rounds}  ${target.name.padEnd(8)}  ${fmt(sample.rps, 0)} req/s  p99 ${fmt(sample.p99Ms, 2)} ms`,
        );
        if (sample.non2xx > 0)
          console.log(`WARNING: ${target.name} round ${round}: ${sample.non2xx} non-2xx responses`);
        if (sample.errors > 0)
          console.log(`WARNING: ${target.name} round ${round}: ${sample.errors} connection errors`);
      }
    }
    report(targets, samples, { durationSeconds: duration, rounds, connections: CONNECTIONS });
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
  }
}

function report(targets: Target[], samples: Map<string, Sample[]>, settings: Record<string, number>): void {
  const summary = targets.map((target) => {
    const list = samples.get(target.name) ?? [];
    return {
      name: target.name,
      rps: median(list.map((s) => s.rps)),
      p99Ms: median(list.map((s) => s.p99Ms)),
      non2xx: list.reduce((sum, s) => sum + s.non2xx, 0),
      errors: list.reduce((sum, s) => sum + s.errors, 0),
      rounds: list.map((s) => ({ rps: s.rps, p99Ms: s.p99Ms })),
    };
  });
  const baseline = summary[0];
  if (!baseline) return;
  const ratio = (value: number, to: number) => (to > 0 ? value / to : null);
  const rows = summary.map((s) => ({
    ...s,
    rpsRatio: ratio(s.rps, baseline.rps),
    p99Ratio: ratio(s.p99Ms, baseline.p99Ms),
  }));

  const table = [
    ['target', 'req/s (median)', 'p99 ms (median)', 'req/s vs baseline', 'p99 vs baseline'],
    ...rows.map((r) => [
      r.name,
      fmt(r.rps, 0),
      fmt(r.p99Ms, 2),
      r.rpsRatio === null ? '-' : `${fmt(r.rpsRatio, 3)}x`,
      r.p99Ratio === null ? '-' : `${fmt(r.p99Ratio, 2)}x`,
    ]),
  ];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0))) ?? [];
  console.log('');
  for (const row of table) {
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join('  '),
    );
  }
  for (const r of rows) {
    if (r.non2xx > 0)
      console.log(`WARNING: ${r.name}: ${r.non2xx} non-2xx responses in total; its numbers are not valid`);
  }
  console.log(`RESULT ${JSON.stringify({ bench: 'http', ...settings, targets: rows })}`);
}

/**
 * One autocannon run. p99 is computed from the exact response times of the 2xx answers (as autocannon
 * does), because autocannon's own histogram has 1 ms resolution and the baseline answers in well under 1 ms.
 */
function load(target: Target, seconds: number): Promise<Sample> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: target.url, headers: target.headers, connections: CONNECTIONS, duration: seconds },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({
          rps: result.requests.average,
          p99Ms: percentile(latencies, 0.99),
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** Creates the benchmark user and its scripts through the real API; answers the session token. */
async function seed(base: string): Promise<string> {
  const { token } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
    email: 'bench@example.com',
    username: 'bench',
    name: 'Bench User',
    password: 'bench-password-123',
  });
  for (let i = 1; i <= SCRIPT_COUNT; i++) {
    await call(base, 'POST', '/api/scripts', { name: `Benchmark script ${i}`, code: luauScript(i) }, token);
  }
  const scripts = await call<unknown[]>(base, 'GET', '/api/scripts', undefined, token);
  if (scripts.length !== SCRIPT_COUNT)
    throw new Error(`expected ${SCRIPT_COUNT} scripts, the API lists ${scripts.length}`);
  return token;
}

/** A few hundred bytes of Luau, like a typical small user script. */
function luauScript(i: number): string {
  return [
    `-- Benchmark script ${i}: greets the player ten times.`,
    'local Players = game:GetService("Players")',
    'local player = Players.LocalPlayer',
    'for step = 1, 10 do',
    `  print(("step %d of script ${i} for %s"):format(step, player.Name))`,
    '  task.wait(0.1)',
    'end',
    'print("done")',
  ].join('\n');
}

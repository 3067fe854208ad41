/**
 * Script versions benchmark: `npm run bench -- versions [--sizes 1,100,1024] [--saves 100] [--reads 20]`.
 *
 * For each code size (KiB), one script saved `--saves` times (so it holds the last 100 versions),
 * then, each `--reads` times: the History list (GET /api/scripts/{id}/versions), one version in
 * full (GET .../versions/{n}) and, as the baseline measured in the same run, the script itself
 * (GET /api/scripts/{id}, which carries the code once). Also the cost of a save that keeps a
 * version against the script's size. Reports medians and ratios: the list must not grow with the
 * code's size (it measures the code in the database, never reads it).
 */
import { parseArgs } from 'node:util';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { Script } from '@moonrelay/contract/scripts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const LINE = 'print("Moonrelay keeps every version of this script")\n';

/** Code of about `kib` KiB (never past the 1 MiB limit) whose every save differs (a counter on its first line). */
const codeOf = (kib: number, save: number) =>
  `-- save ${save}\n` + LINE.repeat(Math.floor((Math.min(kib, 1023) * 1024) / LINE.length));

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { sizes: { type: 'string' }, saves: { type: 'string' }, reads: { type: 'string' } },
  });
  const sizes = (values.sizes ?? '1,100,1000').split(',').map((size) => positiveInteger('--sizes', size));
  const saves = values.saves ? positiveInteger('--saves', values.saves) : 100;
  const reads = values.reads ? positiveInteger('--reads', values.reads) : 20;
  const servers = benchServers();
  try {
    const port = await freePort();
    const moonrelay = servers.start('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: await servers.tempFolder(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
    });
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(moonrelay, `${base}/api/openapi.json`);
    const { token } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
      email: 'versions@example.com',
      username: 'versions',
      name: 'Versions',
      password: 'bench-password-123',
    });
    console.log(`Script versions: ${saves} saves per script, ${reads} reads of each, medians`);
    const results = [];
    for (const kib of sizes) {
      const script = await call<Script>(
        base,
        'POST',
        '/api/scripts',
        { name: `${kib} KiB`, code: codeOf(kib, 1) },
        token,
      );
      const saveTimes: number[] = [];
      for (let save = 2; save <= saves; save++) {
        saveTimes.push(
          await timed(() => call(base, 'PUT', `/api/scripts/${script.id}`, { code: codeOf(kib, save) }, token)),
        );
      }
      const list: number[] = [];
      const one: number[] = [];
      const baseline: number[] = [];
      for (let read = 0; read < reads; read++) {
        baseline.push(await timed(() => call(base, 'GET', `/api/scripts/${script.id}`, undefined, token)));
        list.push(await timed(() => call(base, 'GET', `/api/scripts/${script.id}/versions`, undefined, token)));
        one.push(
          await timed(() => call(base, 'GET', `/api/scripts/${script.id}/versions/${saves - 1}`, undefined, token)),
        );
      }
      const row = {
        kib,
        saveMs: median(saveTimes),
        scriptMs: median(baseline),
        listMs: median(list),
        versionMs: median(one),
      };
      results.push(row);
      console.log(
        `  ${String(kib).padStart(5)} KiB  save ${fmt(row.saveMs, 1)} ms  script (baseline) ${fmt(row.scriptMs, 1)} ms  ` +
          `History list of ${Math.min(saves, 100)} ${fmt(row.listMs, 1)} ms (${fmt(row.listMs / row.scriptMs, 2)}x)  ` +
          `one version ${fmt(row.versionMs, 1)} ms (${fmt(row.versionMs / row.scriptMs, 2)}x)`,
      );
    }
    const [smallest, largest] = [results[0]!, results.at(-1)!];
    console.log(
      `History list, largest against smallest script: ${fmt(largest.listMs / smallest.listMs, 2)}x ` +
        `(the code is ${fmt(largest.kib / smallest.kib, 0)}x larger)`,
    );
    console.log(`RESULT ${JSON.stringify({ bench: 'versions', saves, reads, results })}`);
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
  }
}

/**
 * The heavy account served for a benchmark: `scripts/seed.ts heavy --serve` in a child process,
 * which fills a fresh database (scripts/seed/heavy.ts) and then serves it on a port of its own,
 * keeping the account's live servers pinging until it is stopped. bench/lists.ts and
 * bench/web-heavy.ts start it.
 */
import { once } from 'node:events';
import type { benchServers, Server } from './processes.ts';
import { freePort, HOST } from './processes.ts';

/** The seed's `SEEDED {json}` line: who the account is and where it is served. */
export interface HeavySeed {
  userId: string;
  token: string;
  apiKey: string;
  port: number;
  seconds: number;
  timings: Record<string, number>;
  counts: Record<string, number>;
  scriptId: string;
  serverId: string;
  destinationId: string;
}

/** Seeds the heavy account at `scale` into `database` and answers once it is served, with its address. */
export async function serveHeavyAccount(
  servers: ReturnType<typeof benchServers>,
  options: { label: string; database: string; dataDir: string; scale: number; env?: Record<string, string> },
): Promise<HeavySeed & { base: string }> {
  const port = await freePort();
  const seed = servers.start(
    `seed (${options.label})`,
    'npx',
    [
      'tsx',
      'scripts/seed.ts',
      'heavy',
      `--scale=${options.scale}`,
      `--database=${options.database}`,
      `--serve=${port}`,
    ],
    {
      HOST,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000000',
      ...options.env,
    },
  );
  const seeded = await seededLine(seed);
  return { ...seeded, base: `http://${HOST}:${port}` };
}

/** Waits for the seed's `SEEDED {json}` line (it is then serving), echoing each part's time. */
async function seededLine(server: Server): Promise<HeavySeed> {
  let text = '';
  const stdout = server.child.stdout;
  if (!stdout) throw new Error('the seed has no output');
  for (;;) {
    const found = /^SEEDED (.*)$/m.exec(text);
    if (found) return JSON.parse(found[1]!) as HeavySeed;
    const [chunk] = (await Promise.race([
      once(stdout, 'data'),
      once(server.child, 'exit').then(() => {
        throw new Error('the seed exited before serving');
      }),
    ])) as [Buffer];
    text += chunk.toString();
    for (const line of chunk.toString().split('\n'))
      if (/^\s+\S.*: [\d.]+ s$/.test(line)) console.log(`  ${line.trim()}`);
  }
}

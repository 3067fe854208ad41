/**
 * List calls against a heavy account: `npm run bench -- lists [--scale F] [--samples N] [--postgres]`.
 *
 * Seeds the heavy account (`npm run seed -- heavy`, scripts/seed/heavy.ts) at `--scale` (default
 * 0.1: 100 scripts of 20 versions, 20,000 runs, 200,000 player records, 10,000 online on 500 live
 * servers) into a fresh SQLite file and, with --postgres, a fresh PostgreSQL database
 * (TEST_POSTGRES_URL, or postgres@127.0.0.1:5432), then serves it from a child process (which keeps
 * the live servers pinging) and times every list call a screen makes over real HTTP: the first page
 * and a deep page (by cursor, or page number where the call pages so) of the Runs, Players and
 * Console lists with their filters, the scripts (whole, and My Scripts' pages: first, deep, a
 * search) and a script's versions, the admin screens (users, connections, audit log), a player's
 * moderation history and the bans, a destination's delivery log.
 *
 * One call at a time, the calls interleaved, `--samples` (default 40) of each after a warm-up
 * round. Printed: p50 and p99 per call and the p50's ratio to `GET /api/user` measured in the same
 * run (the machines are shared: compare ratios). The target is a p99 of 100 ms at most; the calls
 * past it are named at the end.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent } from 'undici';
import { MODERATED_PLAYER_ID } from '../scripts/seed/heavy.ts';
import { serveHeavyAccount } from './support/heavy-seed.ts';
import { benchServers } from './support/processes.ts';
import { fmt, percentile, positiveInteger } from './support/stats.ts';

const TARGET_P99_MS = 100;
/** How far down the deep pages are (pages of the list's default size). */
const DEEP_PAGES = 20;
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

interface Target {
  name: string;
  path: string;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      scale: { type: 'string', default: '0.1' },
      samples: { type: 'string', default: '40' },
      postgres: { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 10)) throw new Error('--scale: a number above 0, 10 at most');
  const samples = positiveInteger('--samples', values.samples);
  const servers = benchServers();
  const results: Record<string, unknown>[] = [];
  try {
    const folder = await servers.tempFolder();
    results.push(await measure(servers, 'SQLite', path.join(folder, 'heavy.db'), folder, scale, samples));
    if (values.postgres) {
      const database = await createPostgresDatabase();
      servers.closers.push(database.drop);
      results.push(await measure(servers, 'PostgreSQL', database.url, folder, scale, samples));
    }
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
  }
  console.log(`RESULT ${JSON.stringify({ bench: 'lists', scale, samples, engines: results })}`);
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_POSTGRES_URL ?? DEFAULT_POSTGRES;
  const name = `moonrelay_bench_lists_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function measure(
  servers: ReturnType<typeof benchServers>,
  engine: string,
  database: string,
  dataDir: string,
  scale: number,
  samples: number,
): Promise<Record<string, unknown>> {
  console.log(`\n${engine}: seeding the heavy account at scale ${scale}`);
  const seeded = await serveHeavyAccount(servers, { label: engine, database, dataDir, scale });
  console.log(`${engine}: seeded in ${seeded.seconds} s ${JSON.stringify(seeded.counts)}`);
  const { base } = seeded;
  const agent = new Agent({ connections: 1 });
  const get = async (pathname: string): Promise<{ ms: number; body: unknown }> => {
    const started = performance.now();
    const init: RequestInit & { dispatcher: Agent } = {
      headers: { authorization: `Bearer ${seeded.token}` },
      dispatcher: agent,
    };
    const response = await fetch(base + pathname, init);
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${pathname} answered ${response.status}: ${text.slice(0, 300)}`);
    return { ms, body: JSON.parse(text) as unknown };
  };
  /** The cursor DEEP_PAGES pages down a cursor-paged list. */
  const deepCursor = async (pathname: string): Promise<string> => {
    let cursor: string | null = null;
    for (let page = 0; page < DEEP_PAGES; page++) {
      const sep = pathname.includes('?') ? '&' : '?';
      const { body } = await get(cursor ? `${pathname}${sep}cursor=${encodeURIComponent(cursor)}` : pathname);
      const next = (body as { nextCursor: string | null }).nextCursor;
      if (!next) break;
      cursor = next;
    }
    if (!cursor) throw new Error(`${pathname} has no second page`);
    return encodeURIComponent(cursor);
  };

  const runsDeep = await deepCursor('/api/executions');
  const playersDeep = await deepCursor('/api/players');
  const onlineDeep = await deepCursor('/api/players/online');
  const consoleDeep = await deepCursor('/api/game/console');
  // My Scripts' pages; at scale 0.1 (100 scripts) the deepest is the second.
  const scriptsDeep = await deepCursor('/api/scripts/page');
  const { userId, scriptId, destinationId } = seeded;
  const targets: Target[] = [
    { name: 'baseline GET /api/user', path: '/api/user' },
    { name: 'GET /api/health', path: '/api/health' },
    { name: 'runs', path: '/api/executions' },
    { name: 'runs deep', path: `/api/executions?cursor=${runsDeep}` },
    { name: 'runs status=failed', path: '/api/executions?status=failed' },
    { name: 'runs status=limit', path: '/api/executions?status=limit' },
    { name: 'runs target=game', path: '/api/executions?target=game' },
    { name: 'runs scriptId', path: `/api/executions?scriptId=${scriptId}` },
    { name: 'runs actorId', path: `/api/executions?actorId=${userId}` },
    { name: 'runs failed+game+deep', path: `/api/executions?status=failed&target=game&cursor=${runsDeep}` },
    { name: 'players online', path: '/api/players/online' },
    { name: 'players online deep', path: `/api/players/online?cursor=${onlineDeep}` },
    { name: 'players online q', path: '/api/players/online?q=Player10' },
    // What typing into the search sends first: one letter, then three, each matching almost all.
    { name: 'players online q=P', path: '/api/players/online?q=P' },
    { name: 'players online q=pla', path: '/api/players/online?q=pla' },
    { name: 'players', path: '/api/players' },
    { name: 'players deep', path: `/api/players?cursor=${playersDeep}` },
    { name: 'players q', path: '/api/players?q=Player1000' },
    { name: 'players q (rare)', path: '/api/players?q=Shown%20999' },
    { name: 'players q=P', path: '/api/players?q=P' },
    { name: 'players q=Player10', path: '/api/players?q=Player10' },
    { name: 'console', path: '/api/game/console' },
    { name: 'console deep', path: `/api/game/console?cursor=${consoleDeep}` },
    { name: 'console level=error', path: '/api/game/console?level=error' },
    { name: 'console q', path: '/api/game/console?q=DataStore' },
    { name: 'console server+level+q', path: `/api/game/console?serverId=${seeded.serverId}&level=warning&q=queue` },
    { name: 'scripts', path: '/api/scripts' },
    { name: 'scripts page', path: '/api/scripts/page' },
    { name: 'scripts page deep', path: `/api/scripts/page?cursor=${scriptsDeep}` },
    { name: 'scripts page q', path: '/api/scripts/page?q=REWARDS' },
    { name: 'script versions', path: `/api/scripts/${scriptId}/versions` },
    { name: 'admin users', path: '/api/admin/users' },
    { name: 'admin connections', path: '/api/admin/connections' },
    { name: 'admin connections deep', path: `/api/admin/connections?page=${DEEP_PAGES}&pageSize=20` },
    { name: 'admin audit', path: '/api/admin/audit' },
    { name: 'admin audit deep', path: `/api/admin/audit?page=${DEEP_PAGES}` },
    { name: 'moderation history', path: `/api/players/${MODERATED_PLAYER_ID}/moderation` },
    { name: 'bans', path: '/api/players/bans' },
    { name: 'delivery log', path: `/api/notifications/destinations/${destinationId}/attempts` },
  ];

  // A warm-up round (statements prepared, caches filled), then the samples, the calls interleaved.
  for (const target of targets) await get(target.path);
  const times = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < samples; round++) {
    for (const target of targets) times.get(target.name)!.push((await get(target.path)).ms);
  }
  await agent.close();

  const rows = targets.map((target) => {
    const list = times.get(target.name)!;
    return { name: target.name, path: target.path, p50: percentile(list, 0.5), p99: percentile(list, 0.99) };
  });
  const baseline = rows[0]!.p50;
  const table = [
    ['call', 'p50 ms', 'p99 ms', 'p50 vs /api/user'],
    ...rows.map((r) => [r.name, fmt(r.p50, 1), fmt(r.p99, 1), `${fmt(r.p50 / baseline, 1)}x`]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  console.log(`\n${engine}, scale ${scale}, ${samples} samples per call`);
  for (const row of table) {
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  }
  const missed = rows.filter((r) => r.p99 > TARGET_P99_MS);
  console.log(
    missed.length
      ? `Past the ${TARGET_P99_MS} ms p99 target: ${missed.map((r) => `${r.name} (${fmt(r.p99, 0)} ms)`).join(', ')}`
      : `Every call within the ${TARGET_P99_MS} ms p99 target`,
  );
  return { engine, seedSeconds: seeded.seconds, seedTimings: seeded.timings, counts: seeded.counts, calls: rows };
}

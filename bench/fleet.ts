/**
 * Fleet across instances: `npm run bench -- fleet [--instances N] [--fleet N] [--duration S]`.
 *
 * The game fleet of bench/game.ts (N simulated game servers, each pinging every 2 s) against the
 * scale-out mode: first one Moonrelay instance, then --instances (default 2) behind a round-robin
 * split (each game pings one instance, as behind a load balancer), all over one fresh PostgreSQL
 * database and a private Redis (its own port, removed at the end). Prints each run and the two side
 * by side: answered pings/s, errors, latency, and the instances' CPU and memory summed.
 *
 * On one machine the instances share its cores, so two instances do not double its capacity; what
 * this shows is that the fleet works across instances (presence, commands and events in Redis) and
 * what the shared stores cost per ping. Compare the ratios, not the absolute numbers.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fleetPhase, type FleetResult } from './game.ts';
import { freePort, HOST, signalGroup, startServer, stop, waitUntilReady, type Server } from './support/processes.ts';
import { fmt, positiveInteger } from './support/stats.ts';

const HUGE_RATE_LIMIT = '1000000000';
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Options {
  instances: number;
  fleet: number;
  duration: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      instances: { type: 'string', default: '2' },
      fleet: { type: 'string', default: '2000' },
      duration: { type: 'string', default: '30' },
    },
  });
  const instances = positiveInteger('--instances', values.instances);
  const fleet = positiveInteger('--fleet', values.fleet);
  if (instances > 8) throw new Error('--instances is at most 8 on one machine');
  if (fleet > 10_000) throw new Error('--fleet is at most 10000');
  return { instances, fleet, duration: positiveInteger('--duration', values.duration) };
}

/** A private redis-server on a free port, without persistence. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, HOST, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://${HOST}:${port}`,
    stop: async () => {
      child.kill('SIGKILL');
    },
  };
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `moonrelay_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const servers: Server[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  const cleanUp = async () => {
    await Promise.allSettled(closers.map(async (close) => close()));
    await Promise.all(servers.map(stop));
    await redis?.stop();
    await database?.drop().catch(() => undefined);
  };
  const onSignal = () => void cleanUp().finally(() => process.exit(130));
  const onExit = () => servers.filter((s) => !s.stopped).forEach((s) => signalGroup(s, 'SIGKILL'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', onExit);

  const startInstance = async (env: Record<string, string>) => {
    const port = await freePort();
    const server = startServer(
      `moonrelay-${servers.length + 1}`,
      process.execPath,
      ['--import', 'tsx', 'server/src/main.ts'],
      {
        ...env,
        PORT: String(port),
        HOST,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        RATE_LIMIT_PER_MINUTE: HUGE_RATE_LIMIT,
        RATE_LIMIT_GAME_PING_PER_MINUTE: HUGE_RATE_LIMIT,
      },
    );
    servers.push(server);
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(server, `${base}/api/health`);
    return { base, pid: server.child.pid! };
  };

  try {
    database = await createDatabase();
    redis = await startRedis();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      DATA_DIR: os.tmpdir(),
    };
    console.log(
      `Fleet benchmark on ${os.cpus().length} CPU(s): ${options.fleet} game servers for ${options.duration} s, ` +
        `scale-out mode (PostgreSQL + Redis), 1 instance then ${options.instances}`,
    );
    const first = await startInstance(env);
    // The first account is an admin whose sockets see everything: register it before the fleet's users.
    await fetch(`${first.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'admin@bench.example',
        username: 'benchadmin',
        name: 'Admin',
        password: 'bench-password-123',
      }),
    });

    console.log('\n=== one instance ===');
    const one = await fleetPhase(first.base, [first.pid], options.fleet, options.duration, closers, 1);

    const more = [first];
    while (more.length < options.instances) more.push(await startInstance(env));
    console.log(`\n=== ${options.instances} instances ===`);
    const many = await fleetPhase(
      more.map((i) => i.base),
      more.map((i) => i.pid) as [number, ...number[]],
      options.fleet,
      options.duration,
      closers,
      options.instances,
    );
    report(one, many, options);
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  }
}

function row(label: string, result: FleetResult): string {
  const steady = result.steady?.latency;
  return (
    `${label.padEnd(12)} ${fmt(result.ratePerSecond, 0).padStart(6)} /s  errors ${String(result.errors).padStart(5)}  ` +
    `p50 ${fmt(result.latency.p50Ms, 2).padStart(7)} ms  p99 ${fmt(result.latency.p99Ms, 1).padStart(8)} ms  ` +
    `steady p99 ${steady ? fmt(steady.p99Ms, 1).padStart(7) : '    n/a'} ms  ` +
    `CPU ${fmt(result.serverCpuPercent, 0).padStart(4)}% of a core  RSS ${fmt(result.memoryEnd.rssMb, 0)} MB`
  );
}

function report(one: FleetResult, many: FleetResult, options: Options): void {
  console.log(
    `\n================ Fleet benchmark: ${options.fleet} game servers, ${options.duration} s ================`,
  );
  console.log(row('1 instance', one));
  console.log(row(`${options.instances} instances`, many));
  const cpuPerPing = (r: FleetResult) => (r.serverCpuPercent * 10) / Math.max(1, r.ratePerSecond);
  console.log(
    `server CPU per answered ping: ${fmt(cpuPerPing(one) * 1000, 0)} µs with one instance, ` +
      `${fmt(cpuPerPing(many) * 1000, 0)} µs with ${options.instances} (ratio ${fmt(cpuPerPing(many) / cpuPerPing(one), 2)})`,
  );
  console.log(`RESULT ${JSON.stringify({ bench: 'fleet', ...options, one, many })}`);
}

/**
 * Fleet across instances: `npm run bench -- fleet [--instances N] [--fleet N] [--shape S]
 * [--long-poll] [--duration S] [--generators K] [--dashboards on|off]`.
 *
 * The game fleet of bench/game.ts (N simulated game servers, each pinging every 2 s, or long-polling
 * with --long-poll; probe commands and dashboards as there) against the scale-out mode: first one
 * Moonrelay instance, then --instances (default 2) behind a round-robin split (each game pings one
 * instance, as behind a load balancer), all over one fresh PostgreSQL database (TEST_POSTGRES_URL,
 * or postgres@127.0.0.1:5432) and a private Redis (its own port, removed at the end). --shape is
 * one shape of bench/game.ts (default N/10: one user per 10 servers; 1xN: one user with all of
 * them). Prints each run in full and the two side by side: answered pings/s, errors, latency, probe
 * commands, and the instances' CPU and memory summed; and a `RESULT {json}` line.
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
import type { AuthResponse } from '@moonrelay/contract/auth';
import { PASSWORD, type Account } from './support/accounts.ts';
import {
  fleetPhase,
  MAX_FLEET,
  parseShapes,
  PROBE_EVERY_MS,
  type FleetResult,
  type Shape,
} from './support/fleet-phase.ts';
import { describeFleet } from './support/fleet-report.ts';
import {
  call,
  freePort,
  HOST,
  signalGroup,
  startServer,
  stop,
  waitUntilReady,
  type Server,
} from './support/processes.ts';
import { fmt, positiveInteger } from './support/stats.ts';

const HUGE_RATE_LIMIT = '1000000000';
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Options {
  instances: number;
  fleet: number;
  shape: Shape;
  longPoll: boolean;
  generators: number;
  dashboards: boolean;
  duration: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      instances: { type: 'string', default: '2' },
      fleet: { type: 'string', default: '2000' },
      shape: { type: 'string', default: 'N/10' },
      'long-poll': { type: 'boolean', default: false },
      generators: { type: 'string', default: '0' },
      dashboards: { type: 'string', default: 'on' },
      duration: { type: 'string', default: '30' },
    },
  });
  const instances = positiveInteger('--instances', values.instances);
  const fleet = positiveInteger('--fleet', values.fleet);
  if (instances > 8) throw new Error('--instances is at most 8 on one machine');
  if (fleet > MAX_FLEET) throw new Error(`--fleet is at most ${MAX_FLEET}`);
  const shapes = parseShapes(values.shape, fleet);
  if (shapes.length !== 1) throw new Error('--shape takes one shape here');
  const duration = positiveInteger('--duration', values.duration);
  if (duration > 600) throw new Error('--duration is at most 600 s');
  const generators = Number(values.generators);
  if (!Number.isInteger(generators) || generators < 0 || generators > 16) throw new Error('--generators takes 0 to 16');
  if (values.dashboards !== 'on' && values.dashboards !== 'off') throw new Error('--dashboards takes on or off');
  return {
    instances,
    fleet,
    shape: shapes[0]!,
    longPoll: values['long-poll'],
    generators,
    dashboards: values.dashboards === 'on',
    duration,
  };
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
        REGISTRATIONS_PER_IP_PER_HOUR: HUGE_RATE_LIMIT,
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
      `Fleet benchmark on ${os.cpus().length} CPU(s): ${options.shape.label} (${options.shape.servers} game servers ` +
        `of ${options.shape.users} user(s))${options.longPoll ? ', long-poll' : ''} for ${options.duration} s, ` +
        `scale-out mode (PostgreSQL + Redis), 1 instance then ${options.instances}`,
    );
    const first = await startInstance(env);
    // The first account is an admin whose sockets see everything: register it before the fleet's users.
    const { token, user } = await call<AuthResponse>(first.base, 'POST', '/api/auth/register', {
      email: 'admin@bench.example',
      username: 'benchadmin',
      name: 'Admin',
      password: PASSWORD,
    });
    const admin: Account = { token, key: user.apiKey ?? '', userId: user.id };
    const fleet = (instances: { base: string; pid: number }[]) =>
      fleetPhase({
        kind: 'fleet',
        bases: instances.map((i) => i.base),
        pids: instances.map((i) => i.pid),
        shape: options.shape,
        durationSeconds: options.duration,
        longPoll: options.longPoll,
        generators: options.generators,
        dashboards: options.dashboards,
        probeEveryMs: PROBE_EVERY_MS,
        admin,
        closers,
      });

    console.log('\n=== one instance ===');
    const one = await fleet([first]);

    const more = [first];
    while (more.length < options.instances) more.push(await startInstance(env));
    console.log(`\n=== ${options.instances} instances ===`);
    const many = await fleet(more);
    report(one, many, options);
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  }
}

function row(label: string, result: FleetResult): string {
  const steady = result.windows.find((w) => w.name === 'steady')?.latency;
  return (
    `${label.padEnd(12)} ${fmt(result.answeredPerSecond, 0).padStart(6)} /s  errors ${String(result.failed).padStart(5)}  ` +
    `shed ${String(result.shed).padStart(5)}  p50 ${fmt(result.latency.p50Ms, 2).padStart(7)} ms  ` +
    `p99 ${fmt(result.latency.p99Ms, 1).padStart(8)} ms  steady p99 ${steady ? fmt(steady.p99Ms, 1).padStart(7) : '    n/a'} ms  ` +
    `probes ${result.probes.delivered}/${result.probes.sent}  ` +
    `CPU ${fmt(result.server.cpuPercent, 0).padStart(4)}% of a core  RSS ${fmt(result.server.rssEndMb, 0)} MB`
  );
}

function report(one: FleetResult, many: FleetResult, options: Options): void {
  console.log(`\n================ Fleet benchmark: ${options.shape.label}, ${options.duration} s ================`);
  for (const [label, result] of [
    ['One instance', one],
    [`${options.instances} instances`, many],
  ] as const) {
    console.log(`${label}:`);
    for (const line of describeFleet(result, undefined)) console.log(`   ${line}`);
  }
  console.log(row('1 instance', one));
  console.log(row(`${options.instances} instances`, many));
  console.log(
    `server CPU per answered ping: ${fmt(one.server.cpuUsPerPing, 0)} µs with one instance, ` +
      `${fmt(many.server.cpuUsPerPing, 0)} µs with ${options.instances} ` +
      `(ratio ${fmt(many.server.cpuUsPerPing / one.server.cpuUsPerPing, 2)})`,
  );
  console.log(`RESULT ${JSON.stringify({ bench: 'fleet', ...options, shape: options.shape.label, one, many })}`);
}

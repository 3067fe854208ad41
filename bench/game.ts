/**
 * Game link benchmark: `npm run bench -- game [--fleet N] [--duration S] [--rounds N] [--samples N]
 * [--phases throughput,commands,events,fleet] [--cpu-prof]`.
 *
 *   1. Ping throughput: autocannon (10 connections, POST) against POST /api/game/ping (a registered
 *      user's key, one fixed serverId, a real game's playerData) and against a bare node:http server
 *      that reads the same body and answers a JSON body of the ping answer's size. Interleaved
 *      rounds (--rounds, default 3), medians; also each server's CPU time per request (from /proc).
 *      Target: ping req/s >= 0.60 x bare.
 *   2. Fleet: N game servers (--fleet, default 2000, at most 10000; one user per 10 servers,
 *      registered through the API before the clock starts) each ping every 2 s on a fixed schedule
 *      (spread evenly over the first interval, jittered) for --duration seconds (default 60), over
 *      keep-alive HTTP from this process. Reports pings, errors (target 0), p50/p99 latency (target
 *      p99 <= 50 ms at 5000), split into the first 10 s (every server connects, as after a restart)
 *      and the steady state; the server's RSS before and at the end, its CPU, and how long its event
 *      loop waited for a CPU; and whether this load generator kept its own schedule.
 *   3. Command latency: POST /api/game/command (session token, 'heal') until a game has it,
 *      (a) with plain 2 s pings (expect ~1 s median), (b) with long-poll pings (`wait: 20`,
 *      target p99 <= 50 ms). --samples each (default 100), spaced out.
 *   4. Ping to browser event: a Socket.IO client (the user's session token) gets `game:status`
 *      after a ping from a new game server id; target p99 <= 50 ms. --samples samples.
 * The probes (3, 4) run before the fleet, on an otherwise idle server; the summary is in this order.
 *
 * The Moonrelay server runs as one child process (node --import tsx, so its pid is the server's and
 * --cpu-prof applies to it; the profile is kept and its path printed), with a temporary DATA_DIR
 * and rate limits high enough that the benchmark measures work, not refusals. Both servers listen on
 * 127.0.0.1 only and are stopped at the end, on error and on Ctrl-C. As in bench/http.ts, compare
 * ratios, not absolute numbers: the machines are shared and noisy. Each phase also says how much CPU
 * other processes took meanwhile, so a busy machine is not mistaken for a slow server.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { io, type Socket } from 'socket.io-client';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@moonrelay/contract/events';
import type { GameCommandResponse } from '@moonrelay/contract/game';
import { BenchGame, keepAliveAgent, pingBody, playerData, postJson } from './support/game-client.ts';
import { cpuSecondsOf, memoryOf, schedulingOf, watchCpu, type CpuShare, type Memory } from './support/proc-stats.ts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const PHASES = ['throughput', 'commands', 'events', 'fleet'] as const;
type Phase = (typeof PHASES)[number];

const HUGE_RATE_LIMIT = '1000000000';
const PASSWORD = 'bench-password-123';

// 1. Throughput
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const THROUGHPUT_SECONDS = 5;
const RATIO_TARGET = 0.6;
const PING_ANSWER = JSON.stringify({ success: true, command: null, commands: [] });
const BARE_SERVER = `
const body = ${JSON.stringify(PING_ANSWER)};
require('node:http')
  .createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  })
  .listen(Number(process.env.PORT), '${HOST}');
`;

// 2. Fleet
const MAX_FLEET = 10_000;
const SERVERS_PER_USER = 10;
const PING_INTERVAL_MS = 2_000;
const FLEET_PING_TIMEOUT_MS = 10_000;
const REGISTER_CONCURRENCY = 16;
const FLEET_P99_TARGET_MS = 50;
const FLEET_TARGET_SIZE = 5_000;
/** The generator is "behind" when its timers fire this late at p99, or its event loop is this slow at p99. */
const LAG_TOLERANCE_MS = 20;
const PROGRESS_EVERY_MS = 5_000;
/**
 * Every server's first ping is a connect (a saved presence row, a status event, a new connection),
 * all within the first interval: like a server restart with the whole fleet live. Pings due in this
 * first window are reported apart from the steady state after it.
 */
const CONNECT_WINDOW_MS = 10_000;
const LOOP_DELAY_RESOLUTION_MS = 1;

// 3 and 4. Latency probes
const PROBE_USERS = 10;
const LONG_POLL_SECONDS = 20;
const LATENCY_TARGET_MS = 50;
const SAMPLE_TIMEOUT_MS = 10_000;

interface Account {
  token: string;
  key: string;
  userId: string;
}

interface Options {
  fleet: number;
  duration: number;
  rounds: number;
  samples: number;
  phases: Set<Phase>;
  cpuProf: boolean;
}

interface ThroughputSample {
  rps: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** The target server's CPU time per answered request (from /proc), and its share of one core. */
  cpuUsPerRequest: number;
  cpuPercent: number;
}

interface ThroughputResult {
  rounds: Record<'bare' | 'ping', ThroughputSample[]>;
  bare: { rps: number; p99Ms: number; cpuUsPerRequest: number; cpuPercent: number };
  ping: { rps: number; p99Ms: number; cpuUsPerRequest: number; cpuPercent: number };
  ratio: number;
  valid: boolean;
}

interface LatencyStats {
  samples: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FleetResult {
  fleet: number;
  users: number;
  registerSeconds: number;
  durationSeconds: number;
  planned: number;
  sent: number;
  ok: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** Pings not sent because the game's previous ping was still unanswered when the next two came due. */
  skipped: number;
  /** Pings sent late because the game's previous ping was still unanswered (server slowness). */
  waited: number;
  ratePerSecond: number;
  /** From sending a ping to its answer. */
  latency: Spread;
  /** The same, and errors, split by when the ping was due: while every server connects, and after. */
  connecting: { latency: Spread; errors: number };
  steady: { latency: Spread; errors: number } | null;
  /** From the moment the ping was due to its answer: includes waiting for the previous one. */
  fromSchedule: Spread;
  /** How late the generator's own timers fired (its own lag, not the server's). */
  timerLate: Spread;
  loopDelay: Spread;
  maxInFlight: number;
  socketsAtEnd: number;
  memoryBefore: Memory;
  memoryEnd: Memory;
  memoryPeakSampledMb: number;
  serverCpuPercent: number;
  /** Share of the window the server's event-loop thread was runnable but waited for a CPU. */
  serverRunQueuePercent: number;
  benchCpuPercent: number;
  behind: boolean;
  machine: CpuShare;
}

interface Spread {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Results {
  throughput?: ThroughputResult;
  fleet?: FleetResult;
  commands?: { plain: LatencyStats; longPoll: LatencyStats };
  events?: { event: LatencyStats; pingAnswer: LatencyStats };
  /** How busy the machine was during each phase, by us and by everything else. */
  machine: Partial<Record<Phase, CpuShare>>;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      fleet: { type: 'string', default: '2000' },
      duration: { type: 'string', default: '60' },
      rounds: { type: 'string', default: '3' },
      samples: { type: 'string', default: '100' },
      phases: { type: 'string', default: PHASES.join(',') },
      'cpu-prof': { type: 'boolean', default: false },
    },
  });
  const fleet = positiveInteger('--fleet', values.fleet);
  if (fleet > MAX_FLEET) throw new Error(`--fleet may be at most ${MAX_FLEET}, got ${fleet}`);
  const phases = new Set<Phase>();
  for (const name of values.phases.split(',').map((p) => p.trim())) {
    if (!(PHASES as readonly string[]).includes(name))
      throw new Error(`--phases takes a list of ${PHASES.join(', ')}; got "${name}"`);
    phases.add(name as Phase);
  }
  return {
    fleet,
    duration: positiveInteger('--duration', values.duration),
    rounds: positiveInteger('--rounds', values.rounds),
    samples: positiveInteger('--samples', values.samples),
    phases,
    cpuProf: values['cpu-prof'],
  };
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);

  const servers = benchServers();
  const closers = servers.closers;
  let profileDir: string | undefined;

  try {
    const barePort = await freePort();
    const bare = servers.start('bare', process.execPath, ['-e', BARE_SERVER], { PORT: String(barePort) });
    const bareUrl = `http://${HOST}:${barePort}/`;

    const dataDir = await servers.tempFolder();
    if (options.cpuProf) profileDir = await mkdtemp(path.join(os.tmpdir(), 'moonrelay-game-profile-'));
    const port = await freePort();
    const moonrelay = servers.start(
      'moonrelay',
      process.execPath,
      [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', 'server/src/main.ts'],
      {
        PORT: String(port),
        HOST,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        RATE_LIMIT_PER_MINUTE: HUGE_RATE_LIMIT,
        RATE_LIMIT_GAME_PING_PER_MINUTE: HUGE_RATE_LIMIT,
      },
    );
    const base = `http://${HOST}:${port}`;
    await Promise.all([waitUntilReady(bare, bareUrl), waitUntilReady(moonrelay, `${base}/api/openapi.json`)]);
    const pid = moonrelay.child.pid;
    if (pid === undefined) throw new Error('the moonrelay server has no pid');

    console.log(
      `Game link benchmark on ${os.cpus().length} CPU(s), ${fmt(os.totalmem() / 2 ** 30, 1)} GB; ` +
        `server pid ${pid}, idle RSS ${fmt(memoryOf(pid).rssMb, 0)} MB; phases: ${[...options.phases].join(', ')}`,
    );
    // The first account becomes an admin (whose sockets see every user's events): keep it for the
    // throughput phase only, so the probes and the fleet are ordinary users.
    const [admin] = (await registerUsers(base, 'bench-admin', 1)).accounts;
    const probes = (await registerUsers(base, 'bench-probe', PROBE_USERS)).accounts;
    if (!admin) throw new Error('no benchmark user');

    const barePid = bare.child.pid;
    if (barePid === undefined) throw new Error('the bare server has no pid');
    const results: Results = { machine: {} };
    const watched = async <T>(phase: Phase, work: () => Promise<T>): Promise<T> => {
      const done = watchCpu([pid, barePid]);
      const result = await work();
      results.machine[phase] = done();
      console.log(`  ${describeMachine(results.machine[phase])}`);
      return result;
    };
    const agent = keepAliveAgent(64);
    closers.push(() => agent.destroy());
    if (options.phases.has('throughput')) {
      results.throughput = await watched('throughput', () =>
        throughputPhase({ url: bareUrl, pid: barePid }, { url: `${base}/api/game/ping`, pid }, admin, options.rounds),
      );
    }
    // The latency probes run before the fleet, on an otherwise idle server.
    if (options.phases.has('commands')) {
      results.commands = await watched('commands', () => commandPhase(agent, base, probes, options.samples, closers));
    }
    if (options.phases.has('events')) {
      results.events = await watched('events', () => eventPhase(agent, base, probes, options.samples, closers));
    }
    if (options.phases.has('fleet')) {
      results.fleet = await fleetPhase(base, [pid, barePid], options.fleet, options.duration, closers);
      results.machine.fleet = results.fleet.machine;
      console.log(`  ${describeMachine(results.fleet.machine)} (the load window only)`);
    }
    report(results, options);
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
    if (profileDir) {
      const files = (await readdir(profileDir).catch(() => [])).filter((f) => f.endsWith('.cpuprofile'));
      console.log(`CPU profile of the server: ${files.map((f) => path.join(profileDir!, f)).join(', ') || 'none'}`);
    }
  }
}

/** Registers `count` users through the API, REGISTER_CONCURRENCY at a time (argon2 makes each one slow). */
async function registerUsers(
  base: string,
  prefix: string,
  count: number,
): Promise<{ accounts: Account[]; seconds: number }> {
  const started = performance.now();
  const accounts: Account[] = new Array<Account>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { token, user } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `${prefix}-${i}@example.com`,
        username: `${prefix}-${i}`,
        name: `${prefix} ${i}`,
        password: PASSWORD,
      });
      if (!user.apiKey) throw new Error(`user ${user.username} has no API key`);
      accounts[i] = { token, key: user.apiKey, userId: user.id };
    }
  };
  await Promise.all(Array.from({ length: Math.min(REGISTER_CONCURRENCY, count) }, worker));
  return { accounts, seconds: (performance.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// 1. Ping throughput

async function throughputPhase(
  bare: { url: string; pid: number },
  ping: { url: string; pid: number },
  admin: Account,
  rounds: number,
): Promise<ThroughputResult> {
  const body = pingBody(admin.key, 'bench-throughput-server', playerData('builderman', 156, 1818, 0));
  const targets = [
    { name: 'bare' as const, ...bare },
    { name: 'ping' as const, ...ping },
  ];
  console.log(
    `\n[1] Ping throughput: ${rounds} round(s) x ${THROUGHPUT_SECONDS} s per target (after ${WARMUP_SECONDS} s ` +
      `warm-up), ${CONNECTIONS} connections, POST body ${Buffer.byteLength(body)} bytes`,
  );
  const samples: ThroughputResult['rounds'] = { bare: [], ping: [] };
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      await autocannonLoad(target.url, target.pid, body, WARMUP_SECONDS);
      const sample = await autocannonLoad(target.url, target.pid, body, THROUGHPUT_SECONDS);
      samples[target.name].push(sample);
      console.log(
        `  round ${round}/${rounds}  ${target.name.padEnd(4)}  ${fmt(sample.rps, 0).padStart(7)} req/s  ` +
          `p99 ${fmt(sample.p99Ms, 2).padStart(6)} ms  server CPU ${fmt(sample.cpuPercent, 0)}% of a core, ` +
          `${fmt(sample.cpuUsPerRequest, 0)} µs per request` +
          (sample.non2xx || sample.errors ? `  (${sample.non2xx} non-2xx, ${sample.errors} errors)` : ''),
      );
    }
  }
  const summary = (list: ThroughputSample[]) => ({
    rps: median(list.map((s) => s.rps)),
    p99Ms: median(list.map((s) => s.p99Ms)),
    cpuUsPerRequest: median(list.map((s) => s.cpuUsPerRequest)),
    cpuPercent: median(list.map((s) => s.cpuPercent)),
  });
  const bareSummary = summary(samples.bare);
  const pingSummary = summary(samples.ping);
  const valid = [...samples.bare, ...samples.ping].every((s) => s.non2xx === 0 && s.errors === 0);
  return {
    rounds: samples,
    bare: bareSummary,
    ping: pingSummary,
    ratio: pingSummary.rps / bareSummary.rps,
    valid,
  };
}

/** One autocannon run; p99 from the exact response times of the 2xx answers (as in bench/http.ts). */
function autocannonLoad(url: string, pid: number, body: string, seconds: number): Promise<ThroughputSample> {
  const latencies: number[] = [];
  const cpuBefore = cpuSecondsOf(pid);
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: CONNECTIONS,
        duration: seconds,
      },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const cpuSeconds = cpuSecondsOf(pid) - cpuBefore;
        resolve({
          rps: result.requests.average,
          p99Ms: percentile(latencies, 0.99),
          non2xx: result.non2xx,
          errors: result.errors,
          cpuUsPerRequest: (cpuSeconds * 1e6) / Math.max(1, result.requests.total),
          cpuPercent: (cpuSeconds / ((performance.now() - startedAt) / 1000)) * 100,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// 3. Command latency

async function commandPhase(
  agent: http.Agent,
  base: string,
  probes: Account[],
  samples: number,
  closers: (() => Promise<void> | void)[],
): Promise<{ plain: LatencyStats; longPoll: LatencyStats }> {
  // (a) Plain pings: one game per probe user, each pinging every 2 s (ping, then wait, like the
  // shipped script). Commands go out at random moments, so the wait for the next ping is uniform.
  const lanes = probes.slice(0, Math.min(probes.length, samples));
  const perLane = Math.ceil(samples / lanes.length);
  console.log(
    `\n[3a] Command latency, plain ${PING_INTERVAL_MS / 1000} s pings: ${perLane * lanes.length} samples ` +
      `over ${lanes.length} games (one per user), each command sent at a random moment`,
  );
  const plainGames = lanes.map((probe, i) => new BenchGame(agent, base, probe.key, `cmd-plain-${i}`));
  closers.push(() => Promise.all(plainGames.map((g) => g.stop())).then(() => undefined));
  for (const game of plainGames) await connect(game);
  plainGames.forEach((game) => game.startLoop(PING_INTERVAL_MS));
  const plain = await collect(perLane * lanes.length, lanes.length, async (lane) => {
    const game = plainGames[lane]!;
    await sleep(500 + Math.random() * PING_INTERVAL_MS);
    return commandLatency(agent, base, lanes[lane]!.token, game);
  });
  await Promise.all(plainGames.map((g) => g.stop()));
  reportGameErrors(plainGames);
  console.log(`  ${describe(plain, 0)}`);

  // (b) Long-poll: the game holds a ping open (`wait: 20`) and pings again as soon as one answers.
  console.log(`\n[3b] Command latency, long-poll (wait: ${LONG_POLL_SECONDS}): ${samples} samples, one at a time`);
  const probe = probes[0]!;
  const pollGame = new BenchGame(agent, base, probe.key, 'cmd-longpoll-0', LONG_POLL_SECONDS);
  closers.push(() => pollGame.stop());
  await connect(pollGame);
  pollGame.startLoop();
  const longPoll = await collect(samples, 1, async () => {
    // Spaced out, so the game is back in its long-poll (with the last result) before the next command.
    await sleep(100 + Math.random() * 200);
    return commandLatency(agent, base, probe.token, pollGame);
  });
  await pollGame.stop();
  reportGameErrors([pollGame]);
  console.log(`  ${describe(longPoll, 2)}`);
  return { plain, longPoll };
}

function reportGameErrors(games: BenchGame[]): void {
  for (const game of games) {
    if (game.errors)
      console.log(`  WARNING: game ${game.serverId}: ${game.errors} failed ping(s), last: ${game.lastError}`);
  }
}

/** The first, plain ping: the server is connected (a targeted command needs it) before the loop starts. */
async function connect(game: BenchGame): Promise<void> {
  const answer = await game.ping(undefined, 0);
  if (answer.status !== 200)
    throw new Error(`game ${game.serverId} could not connect: ${answer.status} ${answer.text}`);
}

/** From sending POST /api/game/command to the game having the command. */
async function commandLatency(agent: http.Agent, base: string, token: string, game: BenchGame): Promise<number> {
  const sentAt = performance.now();
  const answer = await postJson(
    agent,
    new URL('/api/game/command', base),
    JSON.stringify({ type: 'heal', serverId: game.serverId }),
    { token, timeoutMs: SAMPLE_TIMEOUT_MS },
  );
  if (answer.status !== 200) throw new Error(`POST /api/game/command answered ${answer.status}: ${answer.text}`);
  const { id } = JSON.parse(answer.text) as GameCommandResponse;
  return (await game.arrivalOf(id, SAMPLE_TIMEOUT_MS)) - sentAt;
}

/** Runs `total` samples over `lanes` concurrent lanes; a failed sample is counted, not fatal. */
async function collect(total: number, lanes: number, sample: (lane: number) => Promise<number>) {
  const values: number[] = [];
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      while (next < total) {
        next++;
        try {
          values.push(await sample(lane));
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  if (failures.length) console.log(`  WARNING: ${failures.length} sample(s) failed, first: ${failures[0]}`);
  return stats(values, failures.length);
}

function stats(values: number[], failures: number): LatencyStats {
  return {
    samples: values.length,
    failures,
    p50Ms: percentile(values, 0.5),
    p99Ms: percentile(values, 0.99),
    maxMs: values.length ? Math.max(...values) : NaN,
  };
}

const describe = (s: LatencyStats, digits: number) =>
  `${s.samples} samples${s.failures ? ` (${s.failures} failed)` : ''}: p50 ${fmt(s.p50Ms, digits)} ms, ` +
  `p99 ${fmt(s.p99Ms, digits)} ms, max ${fmt(s.maxMs, digits)} ms`;

// ---------------------------------------------------------------------------------------------
// 4. Ping to browser event

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

function openSocket(base: string, token: string): Promise<BrowserSocket> {
  const socket: BrowserSocket = io(base, {
    path: SOCKET_PATH,
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.disconnect();
      reject(new Error('the socket did not connect within 10 s'));
    }, SAMPLE_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      socket.disconnect();
      reject(error);
    });
  });
}

async function eventPhase(
  agent: http.Agent,
  base: string,
  probes: Account[],
  samples: number,
  closers: (() => Promise<void> | void)[],
): Promise<{ event: LatencyStats; pingAnswer: LatencyStats }> {
  console.log(
    `\n[4] Ping to browser event: ${samples} samples, each a ping from a new game server id, ` +
      `round-robin over ${probes.length} users with one Socket.IO client each`,
  );
  const sockets = await Promise.all(probes.map((probe) => openSocket(base, probe.token)));
  closers.push(() => sockets.forEach((socket) => socket.disconnect()));
  const waiting = new Map<string, (at: number) => void>();
  for (const socket of sockets) {
    socket.on('game:status', (event) => {
      const at = performance.now();
      for (const server of event.status.servers) waiting.get(server.serverId)?.(at);
    });
  }

  const pingUrl = new URL('/api/game/ping', base);
  const answerTimes: number[] = [];
  const event = await collect(samples, 1, async () => {
    await sleep(100 + Math.random() * 100);
    const n = answerTimes.length;
    const probe = probes[n % probes.length]!;
    const serverId = `event-${n}-${crypto.randomUUID()}`;
    const arrived = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(serverId);
        reject(new Error(`no game:status for ${serverId} within ${SAMPLE_TIMEOUT_MS} ms`));
      }, SAMPLE_TIMEOUT_MS);
      waiting.set(serverId, (at) => {
        clearTimeout(timer);
        waiting.delete(serverId);
        resolve(at);
      });
    });
    const sentAt = performance.now();
    const answer = await postJson(
      agent,
      pingUrl,
      pingBody(probe.key, serverId, playerData('builderman', 156, 1818, n)),
      {
        timeoutMs: SAMPLE_TIMEOUT_MS,
      },
    );
    answerTimes.push(performance.now() - sentAt);
    if (answer.status !== 200) throw new Error(`ping answered ${answer.status}: ${answer.text}`);
    return (await arrived) - sentAt;
  });
  sockets.forEach((socket) => socket.disconnect());
  const pingAnswer = stats(answerTimes, 0);
  console.log(`  event: ${describe(event, 2)}`);
  console.log(`  (the ping's own answer, for comparison: ${describe(pingAnswer, 2)})`);
  return { event, pingAnswer };
}

// ---------------------------------------------------------------------------------------------
// 2. Fleet

interface FleetServer {
  key: string;
  /** The instance this game pings (round-robin over the instances, as behind a load balancer). */
  pingUrl: URL;
  serverId: string;
  step: number;
  inFlight: boolean;
  /** A planned ping that came due while the previous one was still in flight (a game never sends two at once). */
  deferred: number | null;
}

/**
 * `bases`: one Moonrelay instance, or several (bench/fleet.ts), whose pids come first in `pids`
 * (`instances` of them); CPU and memory are summed over the instances.
 */
export async function fleetPhase(
  bases: string | string[],
  pids: [number, ...number[]],
  fleet: number,
  durationSeconds: number,
  closers: (() => Promise<void> | void)[],
  instances = 1,
): Promise<FleetResult> {
  const baseList = Array.isArray(bases) ? bases : [bases];
  const base = baseList[0]!;
  const instancePids = pids.slice(0, instances);
  const sumOver = <T extends number>(read: (pid: number) => T) => instancePids.reduce((sum, p) => sum + read(p), 0);
  const memoryOfAll = (_pid: number): Memory => {
    const each = instancePids.map(memoryOf);
    return { rssMb: each.reduce((n, m) => n + m.rssMb, 0), peakMb: each.reduce((n, m) => n + m.peakMb, 0) };
  };
  const cpuOfAll = (_pid: number) => sumOver(cpuSecondsOf);
  const schedulingOfAll = (_pid: number) => ({ waiting: sumOver((p) => schedulingOf(p).waiting) });
  const [pid, ...otherPids] = pids;
  const userCount = Math.ceil(fleet / SERVERS_PER_USER);
  console.log(
    `\n[2] Fleet: ${fleet} game servers of ${userCount} users, one ping each every ${PING_INTERVAL_MS / 1000} s ` +
      `for ${durationSeconds} s (${fmt(fleet / (PING_INTERVAL_MS / 1000), 0)} pings/s planned)`,
  );
  console.log(`  registering ${userCount} users, ${REGISTER_CONCURRENCY} at a time ...`);
  const registration = await registerUsers(base, `fleet${crypto.randomBytes(3).toString('hex')}`, userCount);
  console.log(
    `  registered ${userCount} users in ${fmt(registration.seconds, 1)} s ` +
      `(${fmt((registration.seconds * 1000) / userCount, 0)} ms per user in wall time)`,
  );

  // Up to one connection per game server, as a real fleet has: a ping never queues in this process.
  const agent = keepAliveAgent(fleet);
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  closers.push(() => {
    stopped = true;
    timers.forEach(clearTimeout);
    agent.destroy();
  });
  const pingUrls = baseList.map((b) => new URL('/api/game/ping', b));
  const servers: FleetServer[] = Array.from({ length: fleet }, (_, i) => ({
    key: registration.accounts[Math.floor(i / SERVERS_PER_USER)]!.key,
    pingUrl: pingUrls[i % pingUrls.length]!,
    serverId: crypto.randomUUID(),
    step: 0,
    inFlight: false,
    deferred: null,
  }));

  const latencies: number[] = [];
  const fromSchedule: number[] = [];
  const windows = {
    connecting: { latencies: [] as number[], errors: 0 },
    steady: { latencies: [] as number[], errors: 0 },
  };
  const timerLate: number[] = [];
  const errorKinds: Record<string, number> = {};
  let planned = 0;
  let sent = 0;
  let ok = 0;
  let errors = 0;
  let skipped = 0;
  let waited = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const startAt = performance.now() + 500;
  const endAt = startAt + durationSeconds * 1000;

  const send = (server: FleetServer, plannedAt: number) => {
    const sentAt = performance.now();
    sent++;
    server.inFlight = true;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    const body = pingBody(server.key, server.serverId, playerData('builderman', 156, 1818, server.step++));
    const window = plannedAt - startAt < CONNECT_WINDOW_MS ? windows.connecting : windows.steady;
    postJson(agent, server.pingUrl, body, { timeoutMs: FLEET_PING_TIMEOUT_MS })
      .then((answer) => {
        if (answer.status === 200) {
          ok++;
          const answeredAt = performance.now();
          latencies.push(answeredAt - sentAt);
          window.latencies.push(answeredAt - sentAt);
          fromSchedule.push(answeredAt - plannedAt);
        } else {
          errors++;
          window.errors++;
          errorKinds[`HTTP ${answer.status}`] = (errorKinds[`HTTP ${answer.status}`] ?? 0) + 1;
        }
      })
      .catch((error: unknown) => {
        errors++;
        window.errors++;
        const kind = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      })
      .finally(() => {
        inFlight--;
        server.inFlight = false;
        if (server.deferred !== null && !stopped) {
          const due = server.deferred;
          server.deferred = null;
          send(server, due);
        }
      });
  };
  // Fixed-rate: ping k of a server is due at its start + k x 2 s. A game never has two pings in
  // flight, so a ping due while the previous one is unanswered waits for that answer; if yet another
  // comes due meanwhile, the older one is dropped (counted as skipped): the server was too slow.
  const schedule = (server: FleetServer, plannedAt: number) => {
    if (plannedAt >= endAt || stopped) return;
    planned++;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (stopped) return;
        timerLate.push(Math.max(0, performance.now() - plannedAt));
        schedule(server, plannedAt + PING_INTERVAL_MS);
        if (!server.inFlight) return send(server, plannedAt);
        if (server.deferred !== null) skipped++;
        else waited++;
        server.deferred = plannedAt;
      },
      Math.max(0, plannedAt - performance.now()),
    );
    timers.add(timer);
  };

  const memoryBefore = memoryOfAll(pid);
  const cpuBefore = cpuOfAll(pid);
  const schedBefore = schedulingOfAll(pid);
  const machineDone = watchCpu([pid, ...otherPids]);
  const benchCpuBefore = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  // Spread evenly over one interval, each start jittered within its slot.
  servers.forEach((server, i) => schedule(server, startAt + ((i + Math.random()) * PING_INTERVAL_MS) / fleet));

  let peakRss = memoryBefore.rssMb;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, memoryOfAll(pid).rssMb);
  }, 1_000);
  let last = { at: startAt, ok: 0, errors: 0, cpu: cpuBefore, waiting: schedBefore.waiting };
  const progress = setInterval(() => {
    const now = performance.now();
    const cpu = cpuOfAll(pid);
    const { waiting } = schedulingOfAll(pid);
    const seconds = (now - last.at) / 1000;
    console.log(
      `  t=${fmt((now - startAt) / 1000, 0).padStart(3)} s: ${fmt(((ok - last.ok) * 1000) / (now - last.at), 0)} answered/s, ` +
        `p99 ${fmt(percentile(latencies.slice(last.ok), 0.99), 1)} ms, ${errors - last.errors} errors, ` +
        `${inFlight} in flight; server ${fmt(((cpu - last.cpu) / seconds) * 100, 0)}% of a core, ` +
        `waited for a CPU ${fmt(((waiting - last.waiting) / seconds) * 100, 0)}% of the time, ` +
        `RSS ${fmt(memoryOfAll(pid).rssMb, 0)} MB`,
    );
    last = { at: now, ok, errors, cpu, waiting };
  }, PROGRESS_EVERY_MS);
  closers.push(() => {
    clearInterval(sampler);
    clearInterval(progress);
  });

  await sleep(Math.max(0, endAt - performance.now()));
  const memoryEnd = memoryOfAll(pid);
  const cpuEnd = cpuOfAll(pid);
  const schedEnd = schedulingOfAll(pid);
  const machine = machineDone();
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const elapsedSeconds = (performance.now() - startAt) / 1000;
  clearInterval(progress);
  loopDelay.disable();
  // The last pings may still be on their way: wait for them, bounded by their timeout.
  const drainUntil = performance.now() + FLEET_PING_TIMEOUT_MS + 1_000;
  while ((inFlight > 0 || servers.some((s) => s.deferred !== null)) && performance.now() < drainUntil) await sleep(50);
  stopped = true;
  clearInterval(sampler);
  const socketsAtEnd =
    Object.values(agent.sockets).reduce((n, list) => n + (list?.length ?? 0), 0) +
    Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
  agent.destroy();
  peakRss = Math.max(peakRss, memoryEnd.rssMb);

  // The histogram holds the whole interval between its checks; the delay is what exceeds the resolution.
  const loopMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - LOOP_DELAY_RESOLUTION_MS);
  const loop = {
    p50Ms: loopMs(loopDelay.percentile(50)),
    p99Ms: loopMs(loopDelay.percentile(99)),
    maxMs: loopMs(loopDelay.max),
  };
  const late = spread(timerLate);
  return {
    fleet,
    users: userCount,
    registerSeconds: registration.seconds,
    durationSeconds,
    planned,
    sent,
    ok,
    errors,
    errorKinds,
    skipped,
    waited,
    ratePerSecond: ok / elapsedSeconds,
    latency: spread(latencies),
    connecting: { latency: spread(windows.connecting.latencies), errors: windows.connecting.errors },
    steady:
      durationSeconds * 1000 > CONNECT_WINDOW_MS
        ? { latency: spread(windows.steady.latencies), errors: windows.steady.errors }
        : null,
    fromSchedule: spread(fromSchedule),
    timerLate: late,
    loopDelay: loop,
    maxInFlight,
    socketsAtEnd,
    memoryBefore,
    memoryEnd,
    memoryPeakSampledMb: peakRss,
    serverCpuPercent: ((cpuEnd - cpuBefore) / elapsedSeconds) * 100,
    serverRunQueuePercent: ((schedEnd.waiting - schedBefore.waiting) / elapsedSeconds) * 100,
    benchCpuPercent: ((benchCpu.user + benchCpu.system) / 1e6 / elapsedSeconds) * 100,
    behind: late.p99Ms > LAG_TOLERANCE_MS || loop.p99Ms > LAG_TOLERANCE_MS,
    machine,
  };
}

function spread(values: number[]): Spread {
  return {
    p50Ms: percentile(values, 0.5),
    p99Ms: percentile(values, 0.99),
    maxMs: values.length ? values.reduce((a, b) => Math.max(a, b), -Infinity) : NaN,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');
/** Other processes using more than this share of one core make the numbers pessimistic. */
const BUSY_MACHINE_PERCENT = 25;

function describeMachine(share: CpuShare | undefined): string {
  if (!share) return '';
  return (
    `machine (${share.cores} cores): this benchmark and its servers used ${fmt(share.ours, 0)}% of a core, ` +
    `other processes ${fmt(share.others, 0)}%` +
    (share.others > BUSY_MACHINE_PERCENT ? ' -- WARNING: a busy machine, the numbers are pessimistic' : '')
  );
}

function report(results: Results, options: Options): void {
  console.log('\n================ Game link benchmark: summary (medians / percentiles) ================');
  const t = results.throughput;
  if (t) {
    console.log(`1. Ping throughput (autocannon, ${CONNECTIONS} connections, median of ${options.rounds} round(s))`);
    for (const [label, row] of [
      ['bare node:http', t.bare],
      ['/api/game/ping', t.ping],
    ] as const) {
      console.log(
        `   ${label}  ${fmt(row.rps, 0).padStart(7)} req/s   p99 ${fmt(row.p99Ms, 2).padStart(6)} ms   ` +
          `server CPU ${fmt(row.cpuUsPerRequest, 0).padStart(4)} µs/request (${fmt(row.cpuPercent, 0)}% of a core)`,
      );
    }
    console.log(
      `   ratio ping/bare ${fmt(t.ratio, 3)} (target >= ${fmt(RATIO_TARGET, 2)}: ${verdict(t.ratio >= RATIO_TARGET)})` +
        `; p99 ${fmt(t.ping.p99Ms / t.bare.p99Ms, 1)}x the bare server's`,
    );
    if (!t.valid) console.log('   WARNING: some answers were not 2xx or failed; these numbers are not valid');
    console.log(`   ${describeMachine(results.machine.throughput)}`);
  }
  const f = results.fleet;
  if (f) {
    console.log(
      `2. Fleet: ${f.fleet} game servers (${f.users} users, registered in ${fmt(f.registerSeconds, 1)} s), ` +
        `one ping per ${PING_INTERVAL_MS / 1000} s each for ${f.durationSeconds} s`,
    );
    console.log(
      `   pings: ${f.ok} answered of ${f.sent} sent (${f.planned} due), ${fmt(f.ratePerSecond, 0)}/s; ` +
        `errors ${f.errors} (target 0: ${verdict(f.errors === 0)})` +
        (f.errors ? ` ${JSON.stringify(f.errorKinds)}` : ''),
    );
    // Judged twice: over the whole run, and over the steady state after every server has connected.
    const within = (latency: Spread, errors: number) => errors === 0 && latency.p99Ms <= FLEET_P99_TARGET_MS;
    const judge = (met: boolean) =>
      f.fleet >= FLEET_TARGET_SIZE ? verdict(met) : `${met ? 'within' : 'above'} it (n/a at ${f.fleet})`;
    console.log(
      `   latency (send -> answer): p50 ${fmt(f.latency.p50Ms, 2)} ms, p99 ${fmt(f.latency.p99Ms, 2)} ms, ` +
        `max ${fmt(f.latency.maxMs, 1)} ms`,
    );
    console.log(
      `   target p99 <= ${FLEET_P99_TARGET_MS} ms and no errors at ${FLEET_TARGET_SIZE} servers: whole run ` +
        judge(within(f.latency, f.errors)) +
        (f.steady ? `; steady state ${judge(within(f.steady.latency, f.steady.errors))}` : ''),
    );
    const windowLine = (w: { latency: Spread; errors: number }) =>
      `p50 ${fmt(w.latency.p50Ms, 2)} ms, p99 ${fmt(w.latency.p99Ms, 2)} ms, ${w.errors} errors`;
    console.log(
      `   - pings due in the first ${CONNECT_WINDOW_MS / 1000} s (every server connects): ${windowLine(f.connecting)}`,
    );
    if (f.steady) console.log(`   - pings due after that (steady state):               ${windowLine(f.steady)}`);
    if (f.waited || f.skipped) {
      console.log(
        `   the server fell behind: ${f.waited} pings went out late because the game's previous ping was still ` +
          `unanswered, ${f.skipped} were dropped; due -> answer p99 ${fmt(f.fromSchedule.p99Ms, 1)} ms`,
      );
    }
    console.log(
      `   server RSS: ${fmt(f.memoryBefore.rssMb, 0)} MB before, ${fmt(f.memoryEnd.rssMb, 0)} MB at the end ` +
        `(peak sampled ${fmt(f.memoryPeakSampledMb, 0)} MB, VmHWM ${fmt(f.memoryEnd.peakMb, 0)} MB); ` +
        `server CPU ${fmt(f.serverCpuPercent, 0)}% of one core on average; its event loop waited for a CPU ` +
        `(run queue) ${fmt(f.serverRunQueuePercent, 0)}% of the time`,
    );
    console.log(
      `   load generator: timers late p50 ${fmt(f.timerLate.p50Ms, 2)} ms, p99 ${fmt(f.timerLate.p99Ms, 2)} ms, ` +
        `max ${fmt(f.timerLate.maxMs, 1)} ms; event-loop delay p99 ${fmt(f.loopDelay.p99Ms, 1)} ms; ` +
        `CPU ${fmt(f.benchCpuPercent, 0)}% of one core; max ${f.maxInFlight} pings in flight, ` +
        `${f.socketsAtEnd} keep-alive sockets at the end`,
    );
    console.log(
      f.behind
        ? `   WARNING: the load generator itself fell behind its schedule (p99 > ${LAG_TOLERANCE_MS} ms): ` +
            `the offered load was lower than planned and the latencies include its own delays`
        : `   the load generator kept its schedule (its timers and event loop p99 <= ${LAG_TOLERANCE_MS} ms)`,
    );
    console.log(`   ${describeMachine(f.machine)}`);
  }
  const c = results.commands;
  if (c) {
    console.log('3. Command latency (POST /api/game/command -> the game has it)');
    console.log(`   (a) plain ${PING_INTERVAL_MS / 1000} s pings: ${describe(c.plain, 0)} (expected ~1,000 ms median)`);
    console.log(
      `   (b) long-poll:          ${describe(c.longPoll, 2)} ` +
        `(target p99 <= ${LATENCY_TARGET_MS} ms: ${verdict(c.longPoll.failures === 0 && c.longPoll.p99Ms <= LATENCY_TARGET_MS)})`,
    );
    console.log(`   ${describeMachine(results.machine.commands)}`);
  }
  const e = results.events;
  if (e) {
    console.log('4. Ping from a new game server -> game:status on the browser socket');
    console.log(
      `   ${describe(e.event, 2)} (target p99 <= ${LATENCY_TARGET_MS} ms: ` +
        `${verdict(e.event.failures === 0 && e.event.p99Ms <= LATENCY_TARGET_MS)}); ping answer p50 ${fmt(e.pingAnswer.p50Ms, 2)} ms`,
    );
    console.log(`   ${describeMachine(results.machine.events)}`);
  }
  console.log(
    `RESULT ${JSON.stringify({
      bench: 'game',
      fleet: options.fleet,
      duration: options.duration,
      rounds: options.rounds,
      samples: options.samples,
      throughput: t && { bare: t.bare, ping: t.ping, ratio: t.ratio, valid: t.valid },
      fleetResult: f,
      commands: c,
      events: e,
      machine: results.machine,
    })}`,
  );
}

/**
 * Game link benchmark: `npm run bench -- game [--phases throughput,commands,events,fleet,storm,console,broadcast]
 * [--fleet N] [--shape 1xN,20xN,N/10] [--long-poll] [--duration S] [--storm N] [--generators K]
 * [--dashboards on|off] [--probe-every S] [--rounds N] [--samples N] [--console-servers N]
 * [--console-rate L] [--broadcast-fleets 1,100,1000,5000,20000] [--broadcast-every S] [--cpu-prof]`.
 * The default phases are throughput, commands, events and fleet; the storm, console and broadcast
 * phases run when named. The shapes asked for most:
 *   - broadcasts to 1 to 20,000 servers of one key, plain and long-poll (two runs):
 *     `--phases broadcast --duration 30` and `--phases broadcast --duration 30 --long-poll`;
 *   - 20 keys x 250 servers, a command a second to a random key, long-poll:
 *     `--phases broadcast --broadcast-fleets 20x5000 --long-poll --duration 40`;
 *   - 1 key x 20,000 servers at 2 s: `--phases fleet --fleet 20000 --shape 1xN --duration 40`;
 *   - a restart storm of 20,000: `--phases storm --storm 20000 --duration 40`.
 *
 *   1. throughput: autocannon (10 connections, POST) against POST /api/game/ping (a registered
 *      user's key, one fixed serverId, a real game's playerData) and against a bare node:http server
 *      that reads the same body and answers a JSON body of the ping answer's size. Interleaved
 *      rounds (--rounds, default 3), medians; also each server's CPU time per request (from /proc).
 *      Target: ping req/s >= 0.5 x bare.
 *   2. fleet: simulated game servers, each pinging every 2 s on a fixed schedule (the first pings
 *      spread over the first interval) for --duration seconds (default 60), once per --shape, each on
 *      a fresh server process (its own DATA_DIR) so one shape's aftermath does not colour the next.
 *      A shape says how the servers are shared out among users, N standing for --fleet (default 2000,
 *      at most 20000): `1xN` one user with N servers (a popular experience on its owner's one key),
 *      `20xN` 20 users sharing N, `N/10` one user per 10 servers (the default, and the yardstick of
 *      the CPU ratios); plain numbers work too (`1x5000,5000/10`). Users are registered through the
 *      API before the clock starts. With --long-poll every ping carries `wait: 2` and the next one
 *      goes out as soon as the answer arrives (no sooner than 250 ms after the previous one began),
 *      paced to one per 2 s when it comes back early without a command (the shipped script's
 *      default); its latency is how long past the wait an answer came. A failure without
 *      Retry-After does not back off (the script's would): the schedule keeps the planned rate.
 *      Reported per shape: requests/s planned, offered (sent, retries included) and answered;
 *      errors and timeouts (target 0); 503s apart as shed, with the Retry-After given and whether
 *      the generator honoured it; p50/p99 in the first 10 s (every server connects, as after a
 *      restart) and in the steady state (target p99 <= 50 ms at 5000 servers); server CPU per
 *      answered request (µs, /proc) beside the N/10 shape's as a ratio, RSS (with N long-polls
 *      held), how much of the time its event loop ran and waited for a CPU (run queue), the TCP
 *      connects dropped at its full accept queue (kernel ListenOverflows) beside its backlog; the RSS
 *      it grew by per game server (RSS at the end less RSS before the fleet, over N); when each game
 *      first had a 2xx answer (p50/p99/max after the start, and how many later than 10 s or never);
 *      the server's CPU per answer from 10 s on (the steady state alone); and the generator's own
 *      lag. A shape with more servers on one user than the server's guard lets connect in a minute
 *      (GAME_NEW_SERVERS_PER_KEY_PER_MINUTE, default 12,000: a leaked key must not make up server
 *      ids by the thousand) runs with that guard raised to twice its servers, and says so.
 *      During every fleet run:
 *      - probe commands: every 3 s (--probe-every, 0 for none), POST /api/game/command ('heal',
 *        the user's session token, one live serverId: a game whose last ping was answered); each
 *        must reach that game on its next ping answer (target: every probe delivered); delivered,
 *        not accepted (409, 503, no answer) and post -> game latency are reported. A command is
 *        open until its result comes back on the game's next ping, and the user's other games'
 *        pings may cost more meanwhile: compare with --probe-every 0;
 *      - dashboards (--dashboards on): the first user's and an admin's Socket.IO connection count
 *        their `game:servers` events (a user's screens get at most one a second; admins get every
 *        user's changes in one), how many servers each carried, and how old the newest ping was.
 *   3. commands: POST /api/game/command (session token, 'heal') until a game has it, on an idle
 *      server: (a) with plain 2 s pings (expect ~1 s median), (b) with long-poll pings (`wait: 20`,
 *      target p99 <= 50 ms). --samples each (default 100), spaced out.
 *   4. events: a Socket.IO client (the user's session token) gets `game:servers` after a ping from a
 *      new game server id; target p99 <= 50 ms. --samples samples, each sent 1.25 s or more after
 *      that user's last event (a user's first change in a second goes out at once, later ones are
 *      gathered).
 *   6. console (run when named): a busy game's live console. --console-servers game servers (default
 *      200) of one user each log --console-rate lines a second (default 50: mixed output, warnings,
 *      one error with a stack in a hundred, 60-150 characters each), carried by their pings (each
 *      ping the lines since the previous one, at most 200), for --duration s, on a fresh server;
 *      then the same fleet without lines, on another fresh server. The account's console budget is
 *      lifted so the raw cost shows. Reported: lines ingested per second (carried by answered pings,
 *      and counted in the table afterwards), server CPU per line (the CPU of the run with lines less
 *      the run without, per line), the pings' p50/p99 in both runs, and what the user's dashboard
 *      socket received (`console:lines` events a second, lines per event, lines left out live).
 *   5. storm: a restart storm on a fresh server: --storm game servers (default 10000, at most 20000)
 *      of one user all send their first ping within 2 s (at random), then ping every 2 s, for
 *      --duration s (give it 30 or more), the server's GAME_NEW_SERVERS_PER_KEY_PER_MINUTE raised as
 *      above (a storm is that guard's worst case). Targets: p99 of the pings due in the storm
 *      <= 250 ms, every game answered 2xx within 10 s of the start, p99 of the pings due from 10 s
 *      on <= 50 ms, every ping answered (a 503 with Retry-After is counted apart as shed and the
 *      ping is sent again after max(Retry-After, 2 s) plus up to as much again at random, as the
 *      shipped script does; the pings due meanwhile are held back, not sent). --cpu-prof profiles
 *      the server through it (where a first ping's time goes).
 *   7. broadcast (run when named): a command to all of a user's servers (POST /api/game/command
 *      without serverId, the user's session token) every --broadcast-every s (default 1), for each
 *      fleet of --broadcast-fleets (default 1,100,1000,5000,20000; a number N is one user with N
 *      servers, and the fleet's shapes work too: `20x5000` is 20 users with 250 servers each, each
 *      broadcast to a random one of them). Each fleet runs twice, each on a fresh server: without
 *      commands, then with the broadcasts, which go out from 10 s (every server connected) until 3 s
 *      before the end; no probe commands in either run. A broadcast is an 'execute' of
 *      `print("bench-broadcast <n>")`, so each game reads which broadcast it got from what it was
 *      given (whatever ids the server gives the copies), counts it once, and reports its result
 *      (that output) on its next ping, as the shipped script does; a Lua syntax error is sent once
 *      before the clock starts (400, nothing queued) so the first broadcast does not pay for the
 *      syntax checker's start. Plain pings, or long-polls with --long-poll (run it twice for both).
 *      Reported per fleet: the POST's answers by status and its latency (enqueue p50/p99), how many
 *      broadcasts reached every server of their user, the time from the POST until the last of
 *      them had it (p50/p99/max), the steady-state ping p99 and the server's CPU per answer from
 *      10 s on, without commands and with (ratio), and errors. Targets: enqueue p99 <= 20 ms
 *      (judged at 20,000 servers); every server has each broadcast within one ping interval plus
 *      the 50 ms answer (2,050 ms) with plain pings, within 50 ms of the POST with long-polls; ping
 *      p99 <= 50 ms; CPU per ping within 10 % of the run without commands; no errors.
 * The probes (3, 4) run before the fleets, on an otherwise idle server.
 *
 * The load generator: every simulated game server has its own keep-alive TCP connection (one socket
 * per server, as a real fleet has, never a shared pool; long-polls are held on them), written by
 * worker threads (--generators, default one per 5000 servers) with a lean HTTP/1.1 client on raw
 * sockets, to leave the server as much of the machine as can be spared. One exception: each socket
 * is a file descriptor in the generator and in the server alike, and a process may hold no more
 * than its open-file limit (`ulimit -n`, which the servers inherit; 20,000 on some machines). A
 * fleet of more servers than that limit less 1,000 shares its connections, the fewest games to a
 * connection that fit (2 for 20,000 under a limit of 20,000), each ping waiting for the one before
 * it on its connection; the run says so, and its RESULT carries gamesPerConnection. Long-polls
 * cannot share (a held ping would hold up the game behind it): such a fleet with --long-poll is
 * refused (the broadcast phase skips it and says why).
 * Each thread measures how late its timers fire and its event-loop delay, and the run how long the
 * generator's threads waited for a CPU; a run whose generator fell behind (timers or event loop
 * p99 > 20 ms) says so in a WARNING line, so a slow generator is not mistaken for a slow server.
 *
 * Output: progress lines every 5 s, then a summary in the order above (each fleet shape in full and
 * all of them side by side), and one `RESULT {json}` line per phase (and per shape) to quote.
 *
 * Each Moonrelay server runs as a child process (node --import tsx, so its pid is the server's and
 * --cpu-prof applies to it; the profiles are kept and their paths printed), with a temporary
 * DATA_DIR and rate limits high enough that the benchmark measures work, not refusals. Everything
 * listens on 127.0.0.1 only, every run is bounded (--duration at most 600 s, at most 20,000 servers)
 * and the servers, sockets, threads and temporary folders are cleaned up at the end, on error and on
 * Ctrl-C. As in bench/http.ts, compare ratios, not absolute numbers: the machines are shared and
 * noisy. Each phase also says how much CPU other processes took meanwhile, so a busy machine is not
 * mistaken for a slow server.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { GAME_SERVERS_EVENT_INTERVAL_MS } from '@moonrelay/contract/constants';
import type { GameCommandResponse } from '@moonrelay/contract/game';
import { registerUsers, type Account } from './support/accounts.ts';
import {
  fleetPhase,
  fleetRefusal,
  MAX_FLEET,
  parseShapes,
  PING_INTERVAL_MS,
  PROBE_EVERY_MS,
  type FleetResult,
  type Shape,
} from './support/fleet-phase.ts';
import { baselineCpuUs, describeFleet, describeMachine, fleetTable, verdict } from './support/fleet-report.ts';
import { BenchGame, keepAliveAgent, pingBody, playerData, postJson } from './support/game-client.ts';
import { cpuSecondsOf, memoryOf, watchCpu, type CpuShare } from './support/proc-stats.ts';
import { benchServers, freePort, HOST, stop, waitUntilReady } from './support/processes.ts';
import { LEGACY_GAME_EVENT, openSocket } from './support/sockets.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const PHASES = ['throughput', 'commands', 'events', 'fleet', 'storm', 'console', 'broadcast'] as const;
const DEFAULT_PHASES = ['throughput', 'commands', 'events', 'fleet'];
type Phase = (typeof PHASES)[number];

const HUGE_RATE_LIMIT = '1000000000';
const MAX_DURATION_SECONDS = 600;

// 1. Throughput
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const THROUGHPUT_SECONDS = 5;
const RATIO_TARGET = 0.5;
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

// 2. Fleet, 5. storm, 6. console and 7. broadcast
const DEFAULT_STORM = 10_000;
/**
 * The server's GAME_NEW_SERVERS_PER_KEY_PER_MINUTE (a guard against a leaked key making up server
 * ids): a fleet with more servers on one key than that, and every storm, run with it raised.
 */
const NEW_SERVERS_PER_KEY_DEFAULT = 12_000;
const DEFAULT_BROADCAST_FLEETS = '1,100,1000,5000,20000';
const DEFAULT_BROADCAST_EVERY_S = 1;
const BROADCAST_ENQUEUE_P99_TARGET_MS = 20;
const BROADCAST_TARGET_AT = 20_000;
const BROADCAST_LONG_POLL_REACH_TARGET_MS = 50;
const BROADCAST_CPU_RATIO_TARGET = 1.1;
const DEFAULT_CONSOLE_SERVERS = 200;
const DEFAULT_CONSOLE_RATE = 50;
/** A pause between two fleet runs, so the previous server's exit and its sockets' teardown are over. */
const SETTLE_MS = 2_000;

// 3 and 4. Latency probes
const PROBE_USERS = 10;
const LONG_POLL_SECONDS = 20;
const LATENCY_TARGET_MS = 50;
const SAMPLE_TIMEOUT_MS = 10_000;
/** The events phase stops after this many samples in a row failed (a server that sends no such event). */
const EVENT_GIVE_UP_AFTER = 3;
/** Added to the event interval between a user's last event and its next sample. */
const EVENT_SPACING_MARGIN_MS = 250;

interface Options {
  fleet: number;
  shapes: Shape[];
  longPoll: boolean;
  storm: number;
  generators: number;
  dashboards: boolean;
  probeEveryMs: number;
  duration: number;
  rounds: number;
  samples: number;
  phases: Set<Phase>;
  cpuProf: boolean;
  consoleServers: number;
  consoleRate: number;
  broadcastShapes: Shape[];
  broadcastEveryMs: number;
}

/** One broadcast shape: the same fleet without commands and with a broadcast every so often, each on a fresh server. */
interface BroadcastRun {
  shape: string;
  mode: FleetResult['mode'];
  /** Why it did not run on this machine (then without and with are absent). */
  skipped?: string;
  without?: FleetResult;
  with?: FleetResult;
}

interface ConsoleRun {
  /** The same fleet with console lines and without. */
  withLines: FleetResult;
  without: FleetResult;
  /** Lines in the table once the run with lines was over. */
  storedLines: number;
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

interface EventResult {
  event: LatencyStats;
  pingAnswer: LatencyStats;
  /** Events of the name the contract replaced, seen meanwhile (a server not yet on `game:servers`). */
  legacyEvents: number;
}

interface Results {
  throughput?: ThroughputResult;
  fleets: FleetResult[];
  storm?: FleetResult;
  commands?: { plain: LatencyStats; longPoll: LatencyStats };
  events?: EventResult;
  console?: ConsoleRun;
  broadcasts: BroadcastRun[];
  /** How busy the machine was during each phase, by us and by everything else. */
  machine: Partial<Record<Phase, CpuShare>>;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      fleet: { type: 'string', default: '2000' },
      shape: { type: 'string', default: 'N/10' },
      'long-poll': { type: 'boolean', default: false },
      storm: { type: 'string', default: String(DEFAULT_STORM) },
      generators: { type: 'string', default: '0' },
      dashboards: { type: 'string', default: 'on' },
      'probe-every': { type: 'string', default: String(PROBE_EVERY_MS / 1000) },
      duration: { type: 'string', default: '60' },
      rounds: { type: 'string', default: '3' },
      samples: { type: 'string', default: '100' },
      phases: { type: 'string', default: DEFAULT_PHASES.join(',') },
      'cpu-prof': { type: 'boolean', default: false },
      'console-servers': { type: 'string', default: String(DEFAULT_CONSOLE_SERVERS) },
      'console-rate': { type: 'string', default: String(DEFAULT_CONSOLE_RATE) },
      'broadcast-fleets': { type: 'string', default: DEFAULT_BROADCAST_FLEETS },
      'broadcast-every': { type: 'string', default: String(DEFAULT_BROADCAST_EVERY_S) },
    },
  });
  const fleet = positiveInteger('--fleet', values.fleet);
  if (fleet > MAX_FLEET) throw new Error(`--fleet may be at most ${MAX_FLEET}, got ${fleet}`);
  const storm = positiveInteger('--storm', values.storm);
  if (storm > MAX_FLEET) throw new Error(`--storm may be at most ${MAX_FLEET}, got ${storm}`);
  const duration = positiveInteger('--duration', values.duration);
  if (duration > MAX_DURATION_SECONDS) throw new Error(`--duration may be at most ${MAX_DURATION_SECONDS} s`);
  const broadcastEvery = Number(values['broadcast-every']);
  if (!Number.isFinite(broadcastEvery) || broadcastEvery < 0.25 || broadcastEvery > 60)
    throw new Error('--broadcast-every takes seconds between broadcasts, 0.25 to 60');
  // A plain number N is one user with N servers (1xN); the fleet's shapes work too (20x5000: 20 users, 250 each).
  const broadcastShapes = values['broadcast-fleets']
    .split(',')
    .map((part) => part.trim())
    .flatMap((part) => parseShapes(/^\d+$/.test(part) ? `1x${part}` : part, fleet));
  if (values.dashboards !== 'on' && values.dashboards !== 'off') throw new Error('--dashboards takes on or off');
  const probeEvery = Number(values['probe-every']);
  if (!Number.isFinite(probeEvery) || probeEvery < 0 || (probeEvery > 0 && probeEvery < 0.5))
    throw new Error('--probe-every takes seconds between probe commands (at least 0.5), or 0 for none');
  const generators = Number(values.generators);
  if (!Number.isInteger(generators) || generators < 0 || generators > 16)
    throw new Error('--generators takes 0 (one thread per 5000 servers) to 16');
  const phases = new Set<Phase>();
  for (const name of values.phases.split(',').map((p) => p.trim())) {
    if (!(PHASES as readonly string[]).includes(name))
      throw new Error(`--phases takes a list of ${PHASES.join(', ')}; got "${name}"`);
    phases.add(name as Phase);
  }
  const shapes = parseShapes(values.shape, fleet);
  if (phases.has('fleet')) {
    for (const shape of shapes) {
      const refusal = fleetRefusal(shape.servers, values['long-poll']);
      if (refusal) throw new Error(`--shape ${shape.label} with --long-poll cannot run here: ${refusal}`);
    }
  }
  return {
    fleet,
    shapes,
    longPoll: values['long-poll'],
    storm,
    generators,
    dashboards: values.dashboards === 'on',
    probeEveryMs: probeEvery * 1000,
    duration,
    rounds: positiveInteger('--rounds', values.rounds),
    samples: positiveInteger('--samples', values.samples),
    phases,
    cpuProf: values['cpu-prof'],
    consoleServers: Math.min(positiveInteger('--console-servers', values['console-servers']), MAX_FLEET),
    consoleRate: Math.min(positiveInteger('--console-rate', values['console-rate']), 1_000),
    broadcastShapes,
    broadcastEveryMs: broadcastEvery * 1000,
  };
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);

  const servers = benchServers();
  const closers = servers.closers;
  let profileDir: string | undefined;

  /** A fresh Moonrelay server (its own DATA_DIR), ready to answer. */
  const startMoonrelay = async (name: string, env: Record<string, string> = {}) => {
    const dataDir = await servers.tempFolder();
    const port = await freePort();
    const server = servers.start(
      name,
      process.execPath,
      [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', 'server/src/main.ts'],
      {
        PORT: String(port),
        HOST,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        RATE_LIMIT_PER_MINUTE: HUGE_RATE_LIMIT,
        REGISTRATIONS_PER_IP_PER_HOUR: HUGE_RATE_LIMIT,
        RATE_LIMIT_GAME_PING_PER_MINUTE: HUGE_RATE_LIMIT,
        ...env,
      },
    );
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(server, `${base}/api/openapi.json`);
    const pid = server.child.pid;
    if (pid === undefined) throw new Error(`the ${name} server has no pid`);
    // The first account becomes an admin (whose sockets see every user's events): the fleet's users are ordinary.
    const [admin] = (await registerUsers(base, 'bench-admin', 1)).accounts;
    if (!admin) throw new Error('no benchmark admin');
    return { server, base, pid, admin, dataDir };
  };

  try {
    if (options.cpuProf) profileDir = await mkdtemp(path.join(os.tmpdir(), 'moonrelay-game-profile-'));
    console.log(
      `Game link benchmark on ${os.cpus().length} CPU(s), ${fmt(os.totalmem() / 2 ** 30, 1)} GB; ` +
        `phases: ${[...options.phases].join(', ')}` +
        (options.phases.has('fleet')
          ? `; fleet shapes: ${options.shapes.map((s) => s.label).join(', ')}${options.longPoll ? ' (long-poll)' : ''}`
          : ''),
    );
    const results: Results = { machine: {}, fleets: [], broadcasts: [] };

    if (options.phases.has('throughput') || options.phases.has('commands') || options.phases.has('events')) {
      const barePort = await freePort();
      const bare = servers.start('bare', process.execPath, ['-e', BARE_SERVER], { PORT: String(barePort) });
      const bareUrl = `http://${HOST}:${barePort}/`;
      const [moonrelay] = await Promise.all([startMoonrelay('moonrelay'), waitUntilReady(bare, bareUrl)]);
      const { pid, base, admin } = moonrelay;
      const barePid = bare.child.pid;
      if (barePid === undefined) throw new Error('the bare server has no pid');
      console.log(`Server pid ${pid}, idle RSS ${fmt(memoryOf(pid).rssMb, 0)} MB`);
      const probes = (await registerUsers(base, 'bench-probe', PROBE_USERS)).accounts;
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
      // The latency probes run before the fleets, on an otherwise idle server.
      if (options.phases.has('commands')) {
        results.commands = await watched('commands', () => commandPhase(agent, base, probes, options.samples, closers));
      }
      if (options.phases.has('events')) {
        results.events = await watched('events', () => eventPhase(agent, base, probes, options.samples, closers));
      }
      agent.destroy();
      await Promise.all([stop(bare), stop(moonrelay.server)]);
    }

    const fleetRun = async (
      kind: 'fleet' | 'storm',
      shape: Shape,
      longPoll: boolean,
      consoleLines?: { perSecond: number; counted: (stored: number) => void },
      broadcast?: { everyMs: number },
    ) => {
      const env: Record<string, string> = {};
      // The raw cost of the lines: no account budget in the way.
      if (consoleLines) env.CONSOLE_LINES_PER_USER_PER_MINUTE = '100000000';
      // A storm, or more servers on one key than the guard lets connect in a minute: the guard raised.
      if (kind === 'storm' || shape.perUser > NEW_SERVERS_PER_KEY_DEFAULT)
        env.GAME_NEW_SERVERS_PER_KEY_PER_MINUTE = String(Math.max(NEW_SERVERS_PER_KEY_DEFAULT, 2 * shape.perUser));
      const name = broadcast ? `broadcast-${shape.label}-${broadcast.everyMs ? 'commands' : 'none'}` : kind;
      const moonrelay = await startMoonrelay(`moonrelay-${name}-${shape.label}${consoleLines ? '-console' : ''}`, env);
      console.log(
        `\nFresh server for ${name === kind ? kind : name} ${shape.label}: pid ${moonrelay.pid}, idle RSS ` +
          `${fmt(memoryOf(moonrelay.pid).rssMb, 0)} MB` +
          (env.GAME_NEW_SERVERS_PER_KEY_PER_MINUTE
            ? ` (GAME_NEW_SERVERS_PER_KEY_PER_MINUTE ${env.GAME_NEW_SERVERS_PER_KEY_PER_MINUTE})`
            : ''),
      );
      try {
        return await fleetPhase({
          kind,
          bases: [moonrelay.base],
          pids: [moonrelay.pid],
          shape,
          durationSeconds: options.duration,
          longPoll,
          generators: options.generators,
          dashboards: options.dashboards,
          // A broadcast run and its twin carry no other commands: the difference is the broadcasts' cost.
          probeEveryMs: broadcast ? 0 : options.probeEveryMs,
          admin: moonrelay.admin,
          closers,
          consoleLinesPerSecond: consoleLines?.perSecond,
          broadcastEveryMs: broadcast?.everyMs,
        });
      } finally {
        // Stopped first: a server stores the lines it still holds before it exits.
        await stop(moonrelay.server);
        if (consoleLines) consoleLines.counted(countConsoleLines(moonrelay.dataDir));
        await sleep(SETTLE_MS);
      }
    };
    if (options.phases.has('fleet')) {
      for (const shape of options.shapes) {
        const result = await fleetRun('fleet', shape, options.longPoll);
        results.fleets.push(result);
        console.log(`  ${describeMachine(result.machine)} (the load window only)`);
      }
    }
    if (options.phases.has('console')) {
      const [shape] = parseShapes(`1x${options.consoleServers}`, options.consoleServers);
      let storedLines = 0;
      const withLines = await fleetRun('fleet', shape!, options.longPoll, {
        perSecond: options.consoleRate,
        counted: (stored) => (storedLines = stored),
      });
      console.log(`  ${describeMachine(withLines.machine)} (the load window only)`);
      const without = await fleetRun('fleet', shape!, options.longPoll);
      console.log(`  ${describeMachine(without.machine)} (the load window only)`);
      results.console = { withLines, without, storedLines };
    }
    if (options.phases.has('storm')) {
      const [shape] = parseShapes(`1x${options.storm}`, options.storm);
      results.storm = await fleetRun('storm', shape!, false);
      console.log(`  ${describeMachine(results.storm.machine)} (the load window only)`);
    }
    if (options.phases.has('broadcast')) {
      const mode = options.longPoll ? 'long-poll' : 'plain';
      for (const shape of options.broadcastShapes) {
        const skipped = fleetRefusal(shape.servers, options.longPoll);
        if (skipped) {
          console.log(`\n[broadcast] ${shape.label} ${mode}: NOT RUN: ${skipped}`);
          results.broadcasts.push({ shape: shape.label, mode, skipped });
          continue;
        }
        const without = await fleetRun('fleet', shape, options.longPoll, undefined, { everyMs: 0 });
        console.log(`  ${describeMachine(without.machine)} (the load window only)`);
        const withCommands = await fleetRun('fleet', shape, options.longPoll, undefined, {
          everyMs: options.broadcastEveryMs,
        });
        console.log(`  ${describeMachine(withCommands.machine)} (the load window only)`);
        results.broadcasts.push({ shape: shape.label, mode, without, with: withCommands });
      }
    }
    report(results, options);
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
    if (profileDir) {
      const files = (await readdir(profileDir).catch(() => [])).filter((f) => f.endsWith('.cpuprofile'));
      console.log(`CPU profiles of the servers: ${files.map((f) => path.join(profileDir!, f)).join(', ') || 'none'}`);
    }
  }
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

/**
 * Runs `total` samples over `lanes` concurrent lanes; a failed sample is counted, not fatal, but
 * `giveUpAfter` failures in a row end the phase early (the rest are not run).
 */
async function collect(
  total: number,
  lanes: number,
  sample: (lane: number) => Promise<number>,
  giveUpAfter = Infinity,
) {
  const values: number[] = [];
  const failures: string[] = [];
  let next = 0;
  let failedInARow = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      while (next < total && failedInARow < giveUpAfter) {
        next++;
        try {
          values.push(await sample(lane));
          failedInARow = 0;
        } catch (error) {
          failedInARow++;
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  if (failures.length) console.log(`  WARNING: ${failures.length} sample(s) failed, first: ${failures[0]}`);
  if (failedInARow >= giveUpAfter && next < total)
    console.log(`  WARNING: gave up after ${giveUpAfter} failures in a row; ${total - next} sample(s) not run`);
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

async function eventPhase(
  agent: http.Agent,
  base: string,
  probes: Account[],
  samples: number,
  closers: (() => Promise<void> | void)[],
): Promise<EventResult> {
  console.log(
    `\n[4] Ping to browser event: ${samples} samples, each a ping from a new game server id, ` +
      `round-robin over ${probes.length} users with one Socket.IO client each (each sent at least ` +
      `${fmt((GAME_SERVERS_EVENT_INTERVAL_MS + EVENT_SPACING_MARGIN_MS) / 1000, 2)} s after that user's last event)`,
  );
  const sockets = await Promise.all(probes.map((probe) => openSocket(base, probe.token)));
  closers.push(() => sockets.forEach((socket) => socket.disconnect()));
  const waiting = new Map<string, (at: number) => void>();
  let legacyEvents = 0;
  // A user's first change in a second goes out at once, later ones are gathered: each sample waits
  // for a quiet second after that user's last event, so it measures the push, not the gathering.
  const lastEventAt = new Array<number>(probes.length).fill(-Infinity);
  sockets.forEach((socket, user) => {
    socket.on('game:servers', (event) => {
      const at = performance.now();
      lastEventAt[user] = at;
      for (const change of event.changes) {
        for (const server of change.servers) waiting.get(server.serverId)?.(at);
      }
    });
    socket.onAny((name: string) => {
      if (name === LEGACY_GAME_EVENT) legacyEvents++;
    });
  });

  const pingUrl = new URL('/api/game/ping', base);
  const answerTimes: number[] = [];
  let n = 0;
  const event = await collect(
    samples,
    1,
    async () => {
      const i = n++;
      const user = i % probes.length;
      const probe = probes[user]!;
      await sleep(
        Math.max(
          100 + Math.random() * 100,
          lastEventAt[user]! + GAME_SERVERS_EVENT_INTERVAL_MS + EVENT_SPACING_MARGIN_MS - performance.now(),
        ),
      );
      const serverId = `event-${i}-${crypto.randomUUID()}`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(serverId);
          reject(new Error(`no game:servers for ${serverId} within ${SAMPLE_TIMEOUT_MS} ms`));
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
        pingBody(probe.key, serverId, playerData('builderman', 156, 1818, i)),
        {
          timeoutMs: SAMPLE_TIMEOUT_MS,
        },
      );
      answerTimes.push(performance.now() - sentAt);
      if (answer.status !== 200) throw new Error(`ping answered ${answer.status}: ${answer.text}`);
      return (await arrived) - sentAt;
    },
    EVENT_GIVE_UP_AFTER,
  );
  sockets.forEach((socket) => socket.disconnect());
  const pingAnswer = stats(answerTimes, 0);
  console.log(`  event: ${describe(event, 2)}`);
  console.log(`  (the ping's own answer, for comparison: ${describe(pingAnswer, 2)})`);
  if (legacyEvents) {
    console.log(
      `  NOTE: the server sent ${legacyEvents} ${LEGACY_GAME_EVENT} events meanwhile, the whole-list event that ` +
        `the contract's game:servers replaced`,
    );
  }
  return { event, pingAnswer, legacyEvents };
}
// ---------------------------------------------------------------------------------------------
// Report

function report(results: Results, options: Options): void {
  console.log('\n================ Game link benchmark: summary (medians / percentiles) ================');
  const lines: string[] = [];
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
    lines.push(
      resultLine('throughput', {
        rounds: options.rounds,
        bare: t.bare,
        ping: t.ping,
        ratio: t.ratio,
        valid: t.valid,
        machine: results.machine.throughput,
      }),
    );
  }
  if (results.fleets.length) {
    const modes = [...new Set(results.fleets.map((f) => f.mode))];
    console.log(`2. Fleet: ${results.fleets.length} shape(s), each on a fresh server`);
    for (const f of results.fleets) {
      const baseline = baselineCpuUs(results.fleets, f.mode);
      for (const line of describeFleet(f, baseline)) console.log(`   ${line}`);
      lines.push(resultLine('fleet', { ...f, cpuRatioToBaseline: baseline ? f.server.cpuUsPerPing / baseline : null }));
    }
    console.log('   The shapes side by side (latencies: plain send -> answer; long-poll, held past the wait):');
    for (const mode of modes) {
      const baseline = baselineCpuUs(results.fleets, mode);
      for (const line of fleetTable(
        results.fleets.filter((f) => f.mode === mode),
        baseline,
      ))
        console.log(`   ${line}`);
      if (baseline === undefined)
        console.log('   (no N/10 shape in this run: no CPU ratio; add e.g. --shape ...,N/10)');
    }
  }
  const c = results.commands;
  if (c) {
    console.log('3. Command latency (POST /api/game/command -> the game has it), idle server');
    console.log(`   (a) plain ${PING_INTERVAL_MS / 1000} s pings: ${describe(c.plain, 0)} (expected ~1,000 ms median)`);
    console.log(
      `   (b) long-poll:          ${describe(c.longPoll, 2)} ` +
        `(target p99 <= ${LATENCY_TARGET_MS} ms: ${verdict(c.longPoll.failures === 0 && c.longPoll.p99Ms <= LATENCY_TARGET_MS)})`,
    );
    console.log(`   ${describeMachine(results.machine.commands)}`);
    lines.push(resultLine('commands', { ...c, machine: results.machine.commands }));
  }
  const e = results.events;
  if (e) {
    console.log('4. Ping from a new game server -> game:servers on the browser socket');
    console.log(
      `   ${describe(e.event, 2)} (target p99 <= ${LATENCY_TARGET_MS} ms: ` +
        `${verdict(e.event.failures === 0 && e.event.samples > 0 && e.event.p99Ms <= LATENCY_TARGET_MS)}); ` +
        `ping answer p50 ${fmt(e.pingAnswer.p50Ms, 2)} ms`,
    );
    if (e.legacyEvents)
      console.log(
        `   the server still sent ${LEGACY_GAME_EVENT} (${e.legacyEvents} events), which the contract replaced`,
      );
    console.log(`   ${describeMachine(results.machine.events)}`);
    lines.push(resultLine('events', { ...e, machine: results.machine.events }));
  }
  const k = results.console;
  if (k) {
    const { withLines: w, without: o } = k;
    const lineCount = w.console?.lines ?? 0;
    const cpuSeconds = (r: FleetResult) => (r.server.cpuUsPerPing * r.ok) / 1e6;
    const cpuUsPerLine = lineCount
      ? ((cpuSeconds(w) - cpuSeconds(o) * (w.ok / Math.max(1, o.ok))) * 1e6) / lineCount
      : NaN;
    const steady = (r: FleetResult) => r.windows.find((x) => x.name === 'steady')?.latency ?? r.latency;
    console.log(
      `6. Console: ${w.servers} game servers of one user, ${options.consoleRate} lines a second each ` +
        `(${fmt(w.servers * options.consoleRate, 0)} lines/s logged), ${w.mode} pings, ${w.durationSeconds} s`,
    );
    console.log(
      `   lines ingested: ${fmt(w.console?.linesPerSecond ?? 0, 0)}/s carried by answered pings (${lineCount} lines), ` +
        `${k.storedLines} in the table afterwards; ${w.console?.dropped ?? 0} reported dropped by the games`,
    );
    console.log(
      `   server CPU: ${fmt(w.server.cpuPercent, 0)}% of a core with lines, ${fmt(o.server.cpuPercent, 0)}% without; ` +
        `${fmt(w.server.cpuUsPerPing, 0)} vs ${fmt(o.server.cpuUsPerPing, 0)} µs per ping; ` +
        `${fmt(cpuUsPerLine, 1)} µs per line`,
    );
    console.log(
      `   pings (${w.mode === 'long-poll' ? 'held past the wait' : 'send -> answer'}), steady state: with lines ` +
        `p50 ${fmt(steady(w).p50Ms, 2)} ms p99 ${fmt(steady(w).p99Ms, 2)} ms, max ${fmt(steady(w).maxMs, 1)} ms; without p50 ${fmt(steady(o).p50Ms, 2)} ms p99 ${fmt(steady(o).p99Ms, 2)} ms, max ` +
        `${fmt(steady(o).maxMs, 1)} ms; errors ${w.failed} vs ${o.failed}; answered ${w.ok} vs ${o.ok}`,
    );
    const socket = w.dashboards?.user.console;
    if (socket) {
      console.log(
        `   the user's dashboard socket: ${fmt(socket.events / w.durationSeconds, 1)} console:lines events/s, ` +
          `${fmt(socket.lines / Math.max(1, socket.events), 0)} lines per event (at most ${socket.maxLinesPerEvent}), ` +
          `${socket.liveDropped} lines left out live (kept in the API), ${socket.lines} shown live`,
      );
    }
    console.log(`   RSS ${fmt(w.server.rssEndMb, 0)} MB with lines, ${fmt(o.server.rssEndMb, 0)} MB without`);
    lines.push(
      resultLine('console', {
        servers: w.servers,
        linesPerServerPerSecond: options.consoleRate,
        mode: w.mode,
        durationSeconds: w.durationSeconds,
        linesIngested: lineCount,
        linesPerSecond: w.console?.linesPerSecond ?? 0,
        storedLines: k.storedLines,
        cpuUsPerLine,
        withLines: {
          cpuPercent: w.server.cpuPercent,
          cpuUsPerPing: w.server.cpuUsPerPing,
          steady: steady(w),
          failed: w.failed,
          ok: w.ok,
          rssEndMb: w.server.rssEndMb,
        },
        without: {
          cpuPercent: o.server.cpuPercent,
          cpuUsPerPing: o.server.cpuUsPerPing,
          steady: steady(o),
          failed: o.failed,
          ok: o.ok,
          rssEndMb: o.server.rssEndMb,
        },
        dashboard: socket ?? null,
        machine: w.machine,
      }),
    );
  }
  const s = results.storm;
  if (s) {
    console.log(`5. Restart storm`);
    const baseline = baselineCpuUs(results.fleets, s.mode);
    for (const line of describeFleet(s, baseline)) console.log(`   ${line}`);
    lines.push(resultLine('storm', { ...s, cpuRatioToBaseline: baseline ? s.server.cpuUsPerPing / baseline : null }));
  }
  if (results.broadcasts.length) {
    console.log(
      `7. Broadcasts: an 'execute' to every server of a random user (POST /api/game/command, no serverId) every ` +
        `${fmt(options.broadcastEveryMs / 1000, 2)} s from 10 s on; each shape without commands, then with, each on a fresh server`,
    );
    for (const run of results.broadcasts) {
      if (run.with) for (const line of describeFleet(run.with, undefined)) console.log(`   ${line}`);
    }
    console.log(
      '   shape      mode       enqueue p50/p99 ms  POST answers           reached all  every game has it p50/p99/max ms  ' +
        'ping p99 ms none/with  µs/ping none/with (ratio)  errors none/with  targets',
    );
    for (const run of results.broadcasts) {
      if (!run.with || !run.without) {
        console.log(`   ${run.shape.padEnd(10)} ${run.mode.padEnd(9)}  not run: ${run.skipped}`);
        lines.push(resultLine('broadcast', { shape: run.shape, mode: run.mode, skipped: run.skipped }));
        continue;
      }
      const summary = broadcastSummary(run.with, run.without);
      const b = run.with.broadcasts!;
      const statuses = Object.entries(b.statuses)
        .map(([k, v]) => `${v}x${k}`)
        .join(' ');
      console.log(
        [
          `   ${run.shape.padEnd(10)}`,
          run.mode.padEnd(9),
          `${fmt(b.enqueue.p50Ms, 1)} / ${fmt(b.enqueue.p99Ms, 1)}`.padStart(18),
          (statuses || 'none').padEnd(22),
          `${b.complete}/${b.accepted}`.padStart(11),
          `${fmt(b.reach.p50Ms, 0)} / ${fmt(b.reach.p99Ms, 0)} / ${fmt(b.reach.maxMs, 0)}`.padStart(33),
          `${fmt(summary.pingP99Ms.without, 1)} / ${fmt(summary.pingP99Ms.with, 1)}`.padStart(22),
          `${fmt(summary.cpuUsPerPing.without, 0)} / ${fmt(summary.cpuUsPerPing.with, 0)} (${fmt(summary.cpuRatio, 2)})`.padStart(
            26,
          ),
          `${run.without.failed} / ${run.with.failed}`.padStart(17),
          ` ${Object.entries(summary.targets)
            .map(([target, met]) => `${target}: ${met === null ? 'n/a' : verdict(met)}`)
            .join('; ')}`,
        ].join(' '),
      );
      lines.push(
        resultLine('broadcast', {
          shape: run.shape,
          mode: run.mode,
          servers: run.with.servers,
          users: run.with.users,
          gamesPerConnection: run.with.gamesPerConnection,
          everyMs: b.everyMs,
          ...summary,
          broadcasts: b,
          without: fleetSummary(run.without),
          with: fleetSummary(run.with),
        }),
      );
    }
    console.log(
      '   (ping p99: the steady state from 10 s on, plain send -> answer, long-poll how long past its wait a held ping ' +
        'was answered; µs/ping: server CPU from 10 s on per answer)',
    );
  }
  for (const line of lines) console.log(line);
}

/** The broadcast run against its twin without commands, and the targets judged. */
function broadcastSummary(withCommands: FleetResult, without: FleetResult) {
  const b = withCommands.broadcasts!;
  const steady = (r: FleetResult) => r.windows.find((w) => w.name === 'steady')!.latency.p99Ms;
  const longPoll = withCommands.mode === 'long-poll';
  // Plain: the game's next ping (within an interval) and its answer; long-poll: the held ping's answer.
  const reachTargetMs = longPoll ? BROADCAST_LONG_POLL_REACH_TARGET_MS : PING_INTERVAL_MS + LATENCY_TARGET_MS;
  const cpuRatio = withCommands.steady.cpuUsPerPing / without.steady.cpuUsPerPing;
  const allReached = b.sent > 0 && b.complete === b.sent;
  return {
    pingP99Ms: { without: steady(without), with: steady(withCommands) },
    cpuUsPerPing: { without: without.steady.cpuUsPerPing, with: withCommands.steady.cpuUsPerPing },
    cpuRatio,
    targets: {
      [`enqueue p99 <= ${BROADCAST_ENQUEUE_P99_TARGET_MS} ms (judged at ${fmt(BROADCAST_TARGET_AT, 0)})`]:
        withCommands.servers >= BROADCAST_TARGET_AT
          ? b.enqueue.count === b.sent && b.enqueue.p99Ms <= BROADCAST_ENQUEUE_P99_TARGET_MS
          : null,
      [`every game has each within ${fmt(reachTargetMs, 0)} ms`]: allReached && b.reach.p99Ms <= reachTargetMs,
      [`ping p99 <= ${LATENCY_TARGET_MS} ms`]: steady(withCommands) <= LATENCY_TARGET_MS,
      [`CPU per ping <= ${fmt(BROADCAST_CPU_RATIO_TARGET, 2)}x`]: cpuRatio <= BROADCAST_CPU_RATIO_TARGET,
      'no errors': withCommands.failed === 0,
    } as Record<string, boolean | null>,
  };
}

/** What a broadcast RESULT line carries of each of its two runs. */
function fleetSummary(r: FleetResult) {
  return {
    ok: r.ok,
    failed: r.failed,
    timeouts: r.timeouts,
    shed: r.shed,
    windows: r.windows,
    steady: r.steady,
    firstAnswer: r.firstAnswer,
    longPoll: r.longPoll,
    server: r.server,
    generator: { threads: r.generator.threads, behind: r.generator.behind, timerLate: r.generator.timerLate },
    machine: r.machine,
  };
}

/** Console lines in a stopped server's SQLite database. */
function countConsoleLines(dataDir: string): number {
  const db = new SQLite(path.join(dataDir, 'moonrelay.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM console_lines').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** One machine-readable line per phase: `RESULT {"bench":"game","phase":...}`. */
function resultLine(phase: Phase, data: object): string {
  return `RESULT ${JSON.stringify({ bench: 'game', phase, ...data }, (_key, value: unknown) =>
    typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value,
  )}`;
}

/**
 * The game fleet of bench/game.ts and bench/fleet.ts: N simulated game servers of U users pinging
 * one or more Moonrelay instances, while this thread posts probe commands to random live servers
 * (and, for the broadcast phase, a command to all of a random user's servers every so often),
 * keeps a dashboard's and an admin's Socket.IO connection open, and samples the servers from /proc.
 * The pings themselves come from worker threads (fleet-worker.ts), so a busy generator shows as its
 * own lag, apart from the server's.
 */
import crypto from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import type { GameCommandResponse } from '@moonrelay/contract/game';
import type { GameServersEvent } from '@moonrelay/contract/events';
import type { ConsoleLinesEvent } from '@moonrelay/contract/console';
import { registerUsers, type Account } from './accounts.ts';
import {
  broadcastCode,
  KIND_COMMAND,
  KIND_HELD,
  type FromGenerator,
  type GeneratorResult,
  type GeneratorSetup,
  type ToGenerator,
} from './fleet-messages.ts';
import { keepAliveAgent, postJson } from './game-client.ts';
import { HOST } from './processes.ts';
import {
  cpuSecondsOf,
  listenBacklog,
  listenOverflows,
  memoryOf,
  openFileLimit,
  schedulingOf,
  threadsSchedulingOf,
  watchCpu,
  type CpuShare,
} from './proc-stats.ts';
import { LEGACY_GAME_EVENT, openSocket, type BrowserSocket } from './sockets.ts';
import { fmt, percentile } from './stats.ts';

export const MAX_FLEET = 20_000;
/**
 * Descriptors kept free under the open-file limit for everything but the games' sockets (the
 * database, threads, pipes, the probes' and dashboards' connections).
 */
const DESCRIPTOR_MARGIN = 1_000;
/** The connect window of a fleet, and the storm's settling: the steady state is judged from here on. */
export const STEADY_FROM_MS = 10_000;
/** Broadcasts go out from STEADY_FROM_MS until this long before the end, so the last one can reach every game. */
const BROADCAST_TAIL_MS = 3_000;
export const PING_INTERVAL_MS = 2_000;
/** `wait` of a long-poll ping (seconds), as the shipped script sends it. */
export const LONG_POLL_WAIT_SECONDS = 2;
const PING_TIMEOUT_MS = 10_000;
/**
 * As lua/integration/game-integration.lua: a retry after a 503 goes out after max(Retry-After,
 * interval) x (1 + up to this much, at random); a long-poll answer that brought commands is
 * followed by the next ping at once, but no sooner than MIN_PING_GAP_MS after the previous began.
 */
const RETRY_JITTER = 1;
const MIN_PING_GAP_MS = 250;
const RETRY_GRACE_MS = 5_000;
/** The generator is "behind" when its timers fire this late at p99, or its event loop is this slow at p99. */
export const LAG_TOLERANCE_MS = 20;
const PROGRESS_EVERY_MS = 5_000;
/** One generator thread per this many game servers, up to one per core. */
const SERVERS_PER_GENERATOR = 5_000;
/** Probe commands: by default one every this often, each given this long to reach its game. */
export const PROBE_EVERY_MS = 3_000;
const PROBE_TIMEOUT_MS = 15_000;
const COMMAND_TIMEOUT_MS = 10_000;
/** A generator thread names a live game to probe within this long (or none is probed). */
const PICK_TIMEOUT_MS = 2_000;
/** A user's screens get at most one `game:servers` a second: closer ones than this are counted. */
const EVENT_SPACING_MIN_MS = 950;
export const FLEET_P99_TARGET_MS = 50;
export const FLEET_TARGET_SIZE = 5_000;
export const STORM_P99_TARGET_MS = 250;
export const AFTER_STORM_P99_TARGET_MS = 50;
/** Every game of a storm must have had a 2xx answer within this long of the start. */
export const STORM_CONNECTED_WITHIN_MS = 10_000;
const LOOP_DELAY_RESOLUTION_MS = 1;

/** U users sharing N game servers. */
export interface Shape {
  /** As it is printed: `1x5000`, `20x5000`, `5000/10`. */
  label: string;
  servers: number;
  users: number;
  /** Server i's user: the servers are dealt out in blocks of ceil(N / U). */
  perUser: number;
  /** Today's shape (one user per 10 servers): the yardstick of the ratios. */
  baseline: boolean;
}

/**
 * `UxN`: U users sharing N servers (`1xN`: one user with all of them); `N/S`: one user per S
 * servers. `N` stands for --fleet. Several shapes are separated by commas.
 */
export function parseShapes(spec: string, fleet: number): Shape[] {
  return spec.split(',').map((part) => parseShape(part.trim(), fleet));
}

function parseShape(text: string, fleet: number): Shape {
  const number = (value: string) => (value === 'N' || value === 'n' ? fleet : Number(value));
  const shared = /^(\d+|N)x(\d+|N)$/i.exec(text);
  const split = /^(\d+|N)\/(\d+)$/i.exec(text);
  if (!shared && !split)
    throw new Error(`--shape takes UxN (U users sharing N servers) or N/S (S per user); got "${text}"`);
  const servers = number((shared ? shared[2] : split![1])!);
  const users = shared ? number(shared[1]!) : Math.ceil(servers / Number(split![2]));
  if (!Number.isInteger(servers) || servers < 1 || servers > MAX_FLEET)
    throw new Error(`a shape has 1 to ${MAX_FLEET} game servers; got "${text}"`);
  if (!Number.isInteger(users) || users < 1 || users > servers)
    throw new Error(`a shape has 1 to N users (no user without a server); got "${text}"`);
  const perUser = Math.ceil(servers / users);
  return {
    label: shared ? `${users}x${servers}` : `${servers}/${split![2]}`,
    servers,
    users,
    perUser,
    baseline: !!split && Number(split[2]) === 10,
  };
}

/**
 * How many games share one TCP connection for a fleet of `servers`: 1 while every game can have
 * its own socket under this machine's open-file limit (the servers inherit the benchmark's), more
 * beyond it. Long-polls cannot share one (a held ping would hold up the game behind it): null then.
 */
export function gamesPerConnection(servers: number, longPoll: boolean): number | null {
  const budget = Math.max(1, openFileLimit() - DESCRIPTOR_MARGIN);
  if (servers <= budget) return 1;
  return longPoll ? null : Math.ceil(servers / budget);
}

/** Why a fleet cannot run here, or null when it can. */
export function fleetRefusal(servers: number, longPoll: boolean): string | null {
  if (gamesPerConnection(servers, longPoll) !== null) return null;
  return (
    `${servers} long-polling games need ${servers} sockets held at once in one process, more than this ` +
    `machine's open-file limit (${openFileLimit()}, less ${DESCRIPTOR_MARGIN} kept for the rest) allows`
  );
}

export interface Spread {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function spread(values: ArrayLike<number>): Spread {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) max = Math.max(max, values[i]!);
  return {
    count: values.length,
    p50Ms: percentile(values, 0.5),
    p99Ms: percentile(values, 0.99),
    maxMs: values.length ? max : NaN,
  };
}

interface WindowSpec {
  name: string;
  label: string;
  fromMs: number;
  toMs: number;
}

export interface WindowResult {
  name: string;
  label: string;
  /** Plain: send -> answer; long-poll: how long after its `wait` a held ping was answered. */
  latency: Spread;
  failed: number;
  shed: number;
}

export interface ProbeResult {
  /** Commands posted (POST /api/game/command, 'heal', one live serverId each). */
  sent: number;
  /** Accepted (200) and seen by their game within PROBE_TIMEOUT_MS. */
  delivered: number;
  /** Accepted but never seen by the game. */
  lost: number;
  /** Not sent: no game had an answered ping within the last two intervals. */
  noLiveGame: number;
  /** Not accepted: by status (409: the server says that game is not connected; 503: shed) or failure (no answer). */
  refused: Record<string, number>;
  /** Delivered on the first ping answer of that game after the command was accepted. */
  onNextPing: number;
  /** Post -> the game has it. */
  latency: Spread;
  /** The POST's own answer time. */
  postLatency: Spread;
}

export interface SocketWatch {
  events: number;
  servers: number;
  gone: number;
  maxServersPerEvent: number;
  /** Events closer than EVENT_SPACING_MIN_MS to the one before (a user's screens get at most one a second). */
  tooClose: number;
  /** Receipt - the newest lastPing the event carries (ms). */
  staleness: Spread;
  legacyEvents: number;
  /** `console:lines` events, the lines they carried, and the lines they counted as left out ('live' drops). */
  console: { events: number; lines: number; maxLinesPerEvent: number; liveDropped: number; gameDropped: number };
}

/** The broadcast phase: a command to every server of a random user (no serverId) every so often. */
export interface BroadcastResult {
  everyMs: number;
  /** POSTs sent, and their answers by status ("200", "500", or the failure: "timeout"...). */
  sent: number;
  statuses: Record<string, number>;
  accepted: number;
  /** The most games one user has (a broadcast should reach every one of its user's). */
  gamesPerUser: number;
  /** Accepted broadcasts that reached every game of their user, those that did not, and the smallest share reached. */
  complete: number;
  incomplete: number;
  leastReachedShare: number | null;
  /** The POST's own answer time (enqueue), every answered POST. */
  enqueue: Spread;
  /** POST sent -> the last game of that user has it (complete broadcasts), and -> the first game has it. */
  reach: Spread;
  firstReach: Spread;
}

export interface FleetResult {
  kind: 'fleet' | 'storm';
  shape: string;
  baseline: boolean;
  mode: 'plain' | 'long-poll';
  servers: number;
  users: number;
  instances: number;
  registerSeconds: number;
  durationSeconds: number;
  /** Games per TCP connection (1 but for fleets larger than the machine's open-file limit allows). */
  gamesPerConnection: number;
  /** Offered by the plan (one ping per server per interval), sent (retries included) and answered, per second. */
  plannedPerSecond: number;
  offeredPerSecond: number;
  answeredPerSecond: number;
  planned: number;
  sent: number;
  ok: number;
  failed: number;
  timeouts: number;
  errorKinds: Record<string, number>;
  shed: number;
  shedWithoutRetryAfter: number;
  retries: number;
  retryAfterSeconds: { min: number; median: number; max: number } | null;
  /** Every retry went out no sooner than its Retry-After (null: there was none). */
  retryAfterHonoured: boolean | null;
  retryMarginMinMs: number | null;
  heldByRetryAfter: number;
  unretried: number;
  waited: number;
  skipped: number;
  latency: Spread;
  /** Due -> answer: includes waiting for the game's previous ping. */
  fromSchedule: Spread;
  windows: WindowResult[];
  /** Each game's first 2xx answer, ms after the start: spread, games answered later than STORM_CONNECTED_WITHIN_MS, and never. */
  firstAnswer: { spread: Spread; later: number; never: number };
  /** From STEADY_FROM_MS to the end: answers (by when they arrived) and the server's CPU per answer. */
  steady: { answered: number; cpuUsPerPing: number };
  broadcasts: BroadcastResult | null;
  longPoll: { held: Spread; commandAnswers: number } | null;
  /** Console lines each server logged a second, and the lines answered pings carried (null: no console). */
  console: { linesPerServerPerSecond: number; lines: number; linesPerSecond: number; dropped: number } | null;
  probes: ProbeResult;
  dashboards: { user: SocketWatch; admin: SocketWatch | null } | null;
  server: {
    cpuPercent: number;
    cpuUsPerPing: number;
    /** Share of the window the server's main thread (its event loop) ran, and was runnable but waited for a CPU. */
    loopRunningPercent: number;
    loopWaitPercent: number;
    /** Its listening socket's accept-queue length, and the connection attempts dropped at a full queue meanwhile. */
    listenBacklog: number;
    listenOverflows: number;
    rssBeforeMb: number;
    rssEndMb: number;
    rssPeakSampledMb: number;
    vmHwmMb: number;
    /** (RSS at the end - RSS before the fleet) per game server, KB. */
    rssPerServerKb: number;
  };
  generator: {
    threads: number;
    cpuPercent: number;
    /** How long its threads together were runnable but waited for a CPU, percent of the window. */
    waitPercent: number;
    timerLate: Spread;
    loopDelayP99Ms: number;
    loopDelayMaxMs: number;
    eventLoopUtilizationMax: number;
    mainLoopDelayP99Ms: number;
    connects: number;
    connectTime: Spread;
    maxInFlight: number;
    behind: boolean;
  };
  machine: CpuShare;
}

export interface FleetOptions {
  kind: 'fleet' | 'storm';
  /** One Moonrelay instance, or several behind a round-robin split (each game pings one). */
  bases: string[];
  /** The instances' pids (CPU and memory are summed over them). */
  pids: number[];
  /** Other processes of the benchmark, counted as ours in the machine's share. */
  otherPids?: number[];
  shape: Shape;
  durationSeconds: number;
  longPoll: boolean;
  /** Generator threads; 0 picks one per SERVERS_PER_GENERATOR servers, up to one per core. */
  generators: number;
  /** One probe command this often (0: none). */
  probeEveryMs: number;
  /** Open a dashboard socket for the first user, and one for this admin when given. */
  dashboards: boolean;
  /** Console lines each game server logs a second, carried by its pings (0 or absent: none). */
  consoleLinesPerSecond?: number;
  /**
   * A broadcast (POST /api/game/command, an 'execute' without serverId, the user's session token) to
   * a random user every this often from STEADY_FROM_MS on (absent or 0: none).
   */
  broadcastEveryMs?: number;
  admin?: Account;
  closers: (() => Promise<void> | void)[];
}

export async function fleetPhase(options: FleetOptions): Promise<FleetResult> {
  const { shape, bases, pids, durationSeconds, longPoll, kind } = options;
  const base = bases[0]!;
  const windows: WindowSpec[] =
    kind === 'storm'
      ? [
          { name: 'storm', label: 'due in the storm (every first ping, 2 s)', fromMs: 0, toMs: 2_000 },
          { name: 'settling', label: 'due from 2 s to 10 s', fromMs: 2_000, toMs: STEADY_FROM_MS },
          { name: 'after', label: 'due from 10 s on', fromMs: STEADY_FROM_MS, toMs: Infinity },
        ]
      : [
          { name: 'connect', label: 'due in the first 10 s (every server connects)', fromMs: 0, toMs: STEADY_FROM_MS },
          { name: 'steady', label: 'due after that (steady state)', fromMs: STEADY_FROM_MS, toMs: Infinity },
        ];
  const threads = Math.max(
    1,
    Math.min(options.generators || Math.ceil(shape.servers / SERVERS_PER_GENERATOR), os.cpus().length * 2),
  );
  const perConnection = gamesPerConnection(shape.servers, longPoll);
  if (perConnection === null) throw new Error(fleetRefusal(shape.servers, longPoll)!);
  if (perConnection > 1 && bases.length > 1)
    throw new Error('games share connections only against one instance: fewer games, or a higher open-file limit');
  const broadcastEveryMs = options.broadcastEveryMs ?? 0;
  console.log(
    `\n[${kind}] ${shape.label}: ${shape.servers} game servers of ${shape.users} user(s) (${shape.perUser} each at most), ` +
      `${longPoll ? `long-poll (wait ${LONG_POLL_WAIT_SECONDS} s, paced to one per ${PING_INTERVAL_MS / 1000} s)` : `a ping every ${PING_INTERVAL_MS / 1000} s`} ` +
      `for ${durationSeconds} s (${fmt(shape.servers / (PING_INTERVAL_MS / 1000), 0)} requests/s planned), ` +
      `${bases.length} instance(s), ${threads} generator thread(s), ` +
      (options.probeEveryMs > 0
        ? `a probe command every ${fmt(options.probeEveryMs / 1000, 1)} s`
        : 'no probe commands') +
      (broadcastEveryMs > 0
        ? `, a broadcast to a random user's servers every ${fmt(broadcastEveryMs / 1000, 1)} s from ${STEADY_FROM_MS / 1000} s on`
        : ''),
  );
  if (perConnection > 1) {
    console.log(
      `  NOTE: ${shape.servers} games are more sockets than one process may hold here (open files: ` +
        `${openFileLimit()}): ${perConnection} games share each connection (a ping waits for the one before it on it)`,
    );
  }
  const registration = await registerUsers(base, `${kind}${crypto.randomBytes(3).toString('hex')}`, shape.users);
  console.log(
    `  registered ${shape.users} user(s) in ${fmt(registration.seconds, 1)} s ` +
      `(${fmt((registration.seconds * 1000) / shape.users, 0)} ms per user in wall time)`,
  );
  const accounts = registration.accounts;
  if (options.broadcastEveryMs !== undefined) {
    // The Lua syntax check starts its threads on first use: warmed with code it refuses (400,
    // nothing queued), so the first broadcast's POST is not that start-up. Its twin without
    // commands does the same, so both servers are alike.
    const warmUp = keepAliveAgent(1);
    await postJson(
      warmUp,
      new URL('/api/game/command', base),
      JSON.stringify({ type: 'execute', data: { code: 'print(' } }),
      { token: accounts[0]!.token, timeoutMs: COMMAND_TIMEOUT_MS },
    ).finally(() => warmUp.destroy());
  }
  const serverUser = (i: number) => Math.floor(i / shape.perUser);
  const ports = bases.map((b) => Number(new URL(b).port));
  const servers = Array.from({ length: shape.servers }, (_, index) => ({
    index,
    key: accounts[serverUser(index)]!.key,
    serverId: crypto.randomUUID(),
    port: ports[index % ports.length]!,
  }));

  // Dashboards: the first user's screen, and an admin's (who sees every user's changes).
  const sockets: BrowserSocket[] = [];
  const watchers: { user: SocketWatcher; admin: SocketWatcher | null } | null = options.dashboards
    ? { user: new SocketWatcher(), admin: options.admin ? new SocketWatcher() : null }
    : null;
  if (watchers) {
    const userSocket = await openSocket(base, accounts[0]!.token);
    sockets.push(userSocket);
    watchers.user.attach(userSocket);
    if (watchers.admin && options.admin) {
      const adminSocket = await openSocket(base, options.admin.token);
      sockets.push(adminSocket);
      watchers.admin.attach(adminSocket);
    }
  }

  // The generator threads.
  const workers: Worker[] = [];
  let workerFailure: Error | undefined;
  let closed = false;
  const closeAll = async () => {
    if (closed) return;
    closed = true;
    for (const worker of workers) worker.postMessage({ type: 'stop' } satisfies ToGenerator);
    await Promise.all(workers.map((worker) => worker.terminate()));
    sockets.forEach((socket) => socket.disconnect());
  };
  options.closers.push(closeAll);
  const results: GeneratorResult[] = [];
  const arrivals = new Map<string, { index: number; at: number }>();
  const picks = new Map<number, (index: number) => void>();
  const arrivalWaiters = new Map<string, (at: number) => void>();
  const answerLog = new Map<number, { at: number; status: number; ids: string[] }[]>();
  const live = { sent: 0, ok: 0, shed: 0, failed: 0, inFlight: new Array<number>(threads).fill(0) };
  let liveLatencies: number[] = [];
  let liveTimerLate: number[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<void>[] = [];
  const setupBase: Omit<GeneratorSetup, 'servers'> = {
    host: HOST,
    intervalMs: PING_INTERVAL_MS,
    longPoll,
    waitSeconds: LONG_POLL_WAIT_SECONDS,
    pingTimeoutMs: PING_TIMEOUT_MS,
    spreadMs: PING_INTERVAL_MS,
    spread: kind === 'storm' ? 'random' : 'even',
    minGapMs: MIN_PING_GAP_MS,
    retryJitter: RETRY_JITTER,
    retryGraceMs: RETRY_GRACE_MS,
    consoleLinesPerSecond: options.consoleLinesPerSecond ?? 0,
    gamesPerConnection: perConnection,
  };
  // Broadcasts: what the games reported, by broadcast number, summed over the threads.
  const broadcastArrivals = new Map<number, { games: number; firstAt: number; lastAt: number }>();
  for (let t = 0; t < threads; t++) {
    const setup: GeneratorSetup = { ...setupBase, servers: servers.filter((s) => s.index % threads === t) };
    const worker = new Worker(workerSource(), { eval: true, workerData: setup });
    workers.push(worker);
    let resolveReady!: () => void;
    let resolveDone!: () => void;
    let rejectDone!: (error: Error) => void;
    ready.push(new Promise<void>((resolve) => (resolveReady = resolve)));
    done.push(
      new Promise<void>((resolve, reject) => {
        resolveDone = resolve;
        rejectDone = reject;
      }),
    );
    worker.on('error', (error) => {
      workerFailure = error;
      rejectDone(error);
      resolveReady();
    });
    worker.on('message', (message: FromGenerator) => {
      switch (message.type) {
        case 'ready':
          return resolveReady();
        case 'progress':
          live.sent += message.sent;
          live.ok += message.ok;
          live.shed += message.shed;
          live.failed += message.failed;
          live.inFlight[t] = message.inFlight;
          for (const value of message.latencies) liveLatencies.push(value);
          if (Number.isFinite(message.timerLateP99)) liveTimerLate.push(message.timerLateP99);
          return;
        case 'watching':
          picks.get(message.ticket)?.(message.index);
          picks.delete(message.ticket);
          return;
        case 'command':
          arrivals.set(message.id, { index: message.index, at: message.at });
          arrivalWaiters.get(message.id)?.(message.at);
          return;
        case 'answer':
          answerLog.get(message.index)?.push({ at: message.at, status: message.status, ids: message.ids });
          return;
        case 'broadcasts':
          for (const { n, games, firstAt, lastAt } of message.arrivals) {
            const known = broadcastArrivals.get(n);
            if (!known) broadcastArrivals.set(n, { games, firstAt, lastAt });
            else {
              known.games += games;
              known.firstAt = Math.min(known.firstAt, firstAt);
              known.lastAt = Math.max(known.lastAt, lastAt);
            }
          }
          return;
        case 'done':
          results.push(message.result);
          return resolveDone();
        case 'failed':
          workerFailure = new Error(`a generator thread failed: ${message.message}`);
          return rejectDone(workerFailure);
      }
    });
  }
  await Promise.all(ready);
  if (workerFailure) throw workerFailure;

  const epoch = () => performance.timeOrigin + performance.now();
  const sumOver = (read: (pid: number) => number) => pids.reduce((sum, pid) => sum + read(pid), 0);
  const memoryNow = () => {
    const each = pids.map(memoryOf);
    return { rssMb: each.reduce((n, m) => n + m.rssMb, 0), peakMb: each.reduce((n, m) => n + m.peakMb, 0) };
  };
  const memoryBefore = memoryNow();
  const cpuBefore = sumOver(cpuSecondsOf);
  const schedBefore = {
    running: sumOver((p) => schedulingOf(p).running),
    waiting: sumOver((p) => schedulingOf(p).waiting),
  };
  const machineDone = watchCpu([...pids, ...(options.otherPids ?? [])]);
  const benchCpuBefore = process.cpuUsage();
  const benchSchedBefore = threadsSchedulingOf(process.pid);
  const overflowsBefore = listenOverflows();
  const mainLoop = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  mainLoop.enable();

  const startAt = epoch() + 500;
  const endAt = startAt + durationSeconds * 1000;
  for (const worker of workers) worker.postMessage({ type: 'start', startAt, endAt } satisfies ToGenerator);
  // The server's CPU once the steady state begins (NaN: the run is shorter than that).
  let cpuAtSteady = NaN;
  const steadyTimer = setTimeout(
    () => (cpuAtSteady = sumOver(cpuSecondsOf)),
    Math.max(0, startAt + STEADY_FROM_MS - epoch()),
  );
  options.closers.push(() => clearTimeout(steadyTimer));

  // Server memory every second; a progress line every PROGRESS_EVERY_MS.
  let peakRss = memoryBefore.rssMb;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryNow().rssMb)), 1_000);
  let last = { at: startAt, cpu: cpuBefore, waiting: schedBefore.waiting, ok: 0, shed: 0, failed: 0 };
  const progress = setInterval(() => {
    const at = epoch();
    const seconds = (at - last.at) / 1000;
    const cpu = sumOver(cpuSecondsOf);
    const waiting = sumOver((p) => schedulingOf(p).waiting);
    const inFlight = live.inFlight.reduce((a, b) => a + b, 0);
    const latencyName = longPoll ? 'held past wait' : 'latency';
    console.log(
      `  t=${fmt((at - startAt) / 1000, 0).padStart(3)} s: ${fmt((live.ok - last.ok) / seconds, 0)} answered/s, ` +
        `${latencyName} p50 ${fmt(percentile(liveLatencies, 0.5), 1)} ms p99 ${fmt(percentile(liveLatencies, 0.99), 1)} ms, ` +
        `${live.shed - last.shed} shed, ${live.failed - last.failed} errors, ${inFlight} in flight; ` +
        `server ${fmt(((cpu - last.cpu) / seconds) * 100, 0)}% of a core, waited for a CPU ` +
        `${fmt(((waiting - last.waiting) / seconds) * 100, 0)}%, RSS ${fmt(memoryNow().rssMb, 0)} MB; ` +
        `generator timers p99 ${fmt(Math.max(...liveTimerLate, 0), 0)} ms late`,
    );
    last = { at, cpu, waiting, ok: live.ok, shed: live.shed, failed: live.failed };
    liveLatencies = [];
    liveTimerLate = [];
  }, PROGRESS_EVERY_MS);
  options.closers.push(() => {
    clearInterval(sampler);
    clearInterval(progress);
  });

  // Probe commands: one every PROBE_EVERY_MS, to a random live game, from when every game has pinged
  // once until one interval before the end (so the game pings again before it stops).
  const agent = keepAliveAgent(16);
  options.closers.push(() => agent.destroy());
  const commandUrl = new URL('/api/game/command', base);
  const probe = newProbeTally();
  const probeRuns: Promise<void>[] = [];
  let tickets = 0;
  const runProbe = async () => {
    // A live game (its last ping answered within two intervals), picked by a random generator thread.
    const ticket = tickets++;
    const thread = workers[Math.floor(Math.random() * threads)]!;
    const index = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(-1), PICK_TIMEOUT_MS);
      picks.set(ticket, (picked) => {
        clearTimeout(timer);
        resolve(picked);
      });
      thread.postMessage({ type: 'watch-live', ticket } satisfies ToGenerator);
    });
    if (index < 0) {
      probe.noLiveGame++;
      return;
    }
    const account = accounts[serverUser(index)]!;
    answerLog.set(index, []);
    probe.sent++;
    const postedAt = epoch();
    try {
      const answer = await postJson(
        agent,
        commandUrl,
        JSON.stringify({ type: 'heal', serverId: servers[index]!.serverId }),
        { token: account.token, timeoutMs: COMMAND_TIMEOUT_MS },
      );
      const acceptedAt = epoch();
      probe.postLatencies.push(acceptedAt - postedAt);
      if (answer.status !== 200) {
        probe.refused[`HTTP ${answer.status}`] = (probe.refused[`HTTP ${answer.status}`] ?? 0) + 1;
        return;
      }
      const { id } = JSON.parse(answer.text) as GameCommandResponse;
      const arrivedAt = await new Promise<number | null>((resolve) => {
        const known = arrivals.get(id);
        if (known) return resolve(known.at);
        const timer = setTimeout(() => {
          arrivalWaiters.delete(id);
          resolve(null);
        }, PROBE_TIMEOUT_MS);
        arrivalWaiters.set(id, (at) => {
          clearTimeout(timer);
          arrivalWaiters.delete(id);
          resolve(at);
        });
      });
      if (arrivedAt === null) {
        probe.lost++;
        return;
      }
      probe.delivered++;
      probe.latencies.push(arrivedAt - postedAt);
      // Was it on the game's first answer after the command was accepted?
      const first = (answerLog.get(index) ?? []).find((a) => a.at > acceptedAt && a.status === 200);
      if (!first || first.ids.includes(id) || first.at >= arrivedAt) probe.onNextPing++;
    } catch (error) {
      const name = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
      probe.refused[name] = (probe.refused[name] ?? 0) + 1;
    } finally {
      thread.postMessage({ type: 'unwatch', index } satisfies ToGenerator);
      answerLog.delete(index);
    }
  };
  // Broadcasts: one every broadcastEveryMs to a random user's servers, numbered in their code.
  const gamesOf = (user: number) => servers.filter((s) => serverUser(s.index) === user).length;
  const gamesPerUser = Array.from({ length: shape.users }, (_, user) => gamesOf(user));
  const broadcastPosts: { n: number; user: number; postedAt: number; status: string; answerMs: number }[] = [];
  const runBroadcast = async (n: number) => {
    const user = Math.floor(Math.random() * shape.users);
    const postedAt = epoch();
    let status: string;
    try {
      const answer = await postJson(
        agent,
        commandUrl,
        JSON.stringify({ type: 'execute', data: { code: broadcastCode(n) } }),
        { token: accounts[user]!.token, timeoutMs: COMMAND_TIMEOUT_MS },
      );
      status = String(answer.status);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status = (error as { code?: string }).code ?? (/^no answer within/.test(message) ? 'timeout' : message);
    }
    broadcastPosts.push({ n, user, postedAt, status, answerMs: epoch() - postedAt });
  };
  const broadcastRuns: Promise<void>[] = [];
  const broadcasting = (async () => {
    let at = startAt + STEADY_FROM_MS;
    let n = 0;
    while (broadcastEveryMs > 0 && at < endAt - BROADCAST_TAIL_MS && !workerFailure) {
      await sleep(Math.max(0, at - epoch()));
      broadcastRuns.push(runBroadcast(n++));
      at += broadcastEveryMs;
    }
  })();

  const probing = (async () => {
    let at = startAt + PING_INTERVAL_MS + 1_000;
    while (options.probeEveryMs > 0 && at < endAt - PING_INTERVAL_MS - 1_000 && !workerFailure) {
      await sleep(Math.max(0, at - epoch()));
      probeRuns.push(runProbe());
      at += options.probeEveryMs;
    }
  })();

  await sleep(Math.max(0, endAt - epoch()));
  const memoryEnd = memoryNow();
  const cpuEnd = sumOver(cpuSecondsOf);
  const schedEnd = {
    running: sumOver((p) => schedulingOf(p).running),
    waiting: sumOver((p) => schedulingOf(p).waiting),
  };
  const machine = machineDone();
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const benchWaitSeconds = threadsSchedulingOf(process.pid).waiting - benchSchedBefore.waiting;
  const overflows = listenOverflows() - overflowsBefore;
  const elapsedSeconds = (epoch() - startAt) / 1000;
  clearInterval(progress);
  mainLoop.disable();
  await Promise.all([probing, broadcasting]);
  await Promise.all([...done, ...probeRuns, ...broadcastRuns]);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, memoryEnd.rssMb);
  await closeAll();

  return merge({
    options,
    windows,
    results,
    threads,
    registerSeconds: registration.seconds,
    elapsedSeconds,
    probe,
    watchers,
    cpuSteadySeconds: cpuEnd - cpuAtSteady,
    perConnection,
    broadcasts:
      broadcastEveryMs > 0
        ? summarizeBroadcasts(broadcastEveryMs, broadcastPosts, broadcastArrivals, gamesPerUser)
        : null,
    server: {
      cpuPercent: ((cpuEnd - cpuBefore) / elapsedSeconds) * 100,
      cpuSeconds: cpuEnd - cpuBefore,
      loopRunningPercent: ((schedEnd.running - schedBefore.running) / elapsedSeconds) * 100,
      loopWaitPercent: ((schedEnd.waiting - schedBefore.waiting) / elapsedSeconds) * 100,
      listenBacklog: Math.min(...ports.map(listenBacklog)),
      listenOverflows: overflows,
      rssBeforeMb: memoryBefore.rssMb,
      rssEndMb: memoryEnd.rssMb,
      rssPeakSampledMb: peakRss,
      vmHwmMb: memoryEnd.peakMb,
      rssPerServerKb: ((memoryEnd.rssMb - memoryBefore.rssMb) * 1024) / shape.servers,
    },
    benchCpuPercent: ((benchCpu.user + benchCpu.system) / 1e6 / elapsedSeconds) * 100,
    benchWaitPercent: (benchWaitSeconds / elapsedSeconds) * 100,
    mainLoopDelayP99Ms: Math.max(0, mainLoop.percentile(99) / 1e6 - LOOP_DELAY_RESOLUTION_MS),
    machine,
  });
}

/** The generator thread's entry: tsx's loader is registered in the thread first (Node 20 does not pass it on). */
function workerSource(): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./fleet-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(entry)}));`;
}

function summarizeBroadcasts(
  everyMs: number,
  posts: { n: number; user: number; postedAt: number; status: string; answerMs: number }[],
  arrivals: Map<number, { games: number; firstAt: number; lastAt: number }>,
  gamesPerUser: number[],
): BroadcastResult {
  const statuses: Record<string, number> = {};
  const enqueue: number[] = [];
  const reach: number[] = [];
  const firstReach: number[] = [];
  let accepted = 0;
  let complete = 0;
  let leastShare = Infinity;
  for (const post of posts) {
    statuses[post.status] = (statuses[post.status] ?? 0) + 1;
    if (Number.isFinite(Number(post.status))) enqueue.push(post.answerMs);
    if (post.status !== '200') continue;
    accepted++;
    const expected = gamesPerUser[post.user]!;
    const got = arrivals.get(post.n);
    const reached = got?.games ?? 0;
    leastShare = Math.min(leastShare, reached / expected);
    if (got) firstReach.push(got.firstAt - post.postedAt);
    if (got && reached >= expected) {
      complete++;
      reach.push(got.lastAt - post.postedAt);
    }
  }
  return {
    everyMs,
    sent: posts.length,
    statuses,
    accepted,
    gamesPerUser: Math.max(...gamesPerUser),
    complete,
    incomplete: accepted - complete,
    leastReachedShare: Number.isFinite(leastShare) ? leastShare : null,
    enqueue: spread(enqueue),
    reach: spread(reach),
    firstReach: spread(firstReach),
  };
}

function newProbeTally() {
  return {
    sent: 0,
    delivered: 0,
    lost: 0,
    noLiveGame: 0,
    onNextPing: 0,
    refused: {} as Record<string, number>,
    latencies: [] as number[],
    postLatencies: [] as number[],
  };
}

/** Counts one socket's `game:servers` events (and any legacy whole-list events). */
class SocketWatcher {
  private events = 0;
  private servers = 0;
  private gone = 0;
  private maxServersPerEvent = 0;
  private tooClose = 0;
  private lastAt = 0;
  private staleness: number[] = [];
  private legacy = 0;
  private console = { events: 0, lines: 0, maxLinesPerEvent: 0, liveDropped: 0, gameDropped: 0 };

  attach(socket: BrowserSocket): void {
    socket.on('game:servers', (event: GameServersEvent) => {
      const at = Date.now();
      this.events++;
      if (this.lastAt && at - this.lastAt < EVENT_SPACING_MIN_MS) this.tooClose++;
      this.lastAt = at;
      let count = 0;
      let newest = 0;
      for (const change of event.changes) {
        count += change.servers.length;
        this.gone += change.gone.length;
        for (const server of change.servers) newest = Math.max(newest, Date.parse(server.lastPing));
      }
      this.servers += count;
      this.maxServersPerEvent = Math.max(this.maxServersPerEvent, count);
      if (newest) this.staleness.push(at - newest);
    });
    socket.on('console:lines', (event: ConsoleLinesEvent) => {
      this.console.events++;
      this.console.lines += event.lines.length;
      this.console.maxLinesPerEvent = Math.max(this.console.maxLinesPerEvent, event.lines.length);
      for (const drop of event.drops) {
        if (drop.reason === 'live') this.console.liveDropped += drop.count;
        else this.console.gameDropped += drop.count;
      }
    });
    socket.onAny((name: string) => {
      if (name === LEGACY_GAME_EVENT) this.legacy++;
    });
  }

  result(): SocketWatch {
    return {
      events: this.events,
      servers: this.servers,
      gone: this.gone,
      maxServersPerEvent: this.maxServersPerEvent,
      tooClose: this.tooClose,
      staleness: spread(this.staleness),
      legacyEvents: this.legacy,
      console: { ...this.console },
    };
  }
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function merge(input: {
  options: FleetOptions;
  windows: WindowSpec[];
  results: GeneratorResult[];
  threads: number;
  registerSeconds: number;
  elapsedSeconds: number;
  probe: ReturnType<typeof newProbeTally>;
  watchers: { user: SocketWatcher; admin: SocketWatcher | null } | null;
  cpuSteadySeconds: number;
  perConnection: number;
  broadcasts: BroadcastResult | null;
  server: Omit<FleetResult['server'], 'cpuUsPerPing'> & { cpuSeconds: number };
  benchCpuPercent: number;
  benchWaitPercent: number;
  mainLoopDelayP99Ms: number;
  machine: CpuShare;
}): FleetResult {
  const { options, results, elapsedSeconds } = input;
  const sum = (pick: (r: GeneratorResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const okDue = concat(results.map((r) => r.okDue));
  const okLatency = concat(results.map((r) => r.okLatency));
  const okSendDelay = concat(results.map((r) => r.okSendDelay));
  const okKind = concat(results.map((r) => r.okKind));
  const firstOk = concat(results.map((r) => r.firstOk));
  const shedDue = concat(results.map((r) => r.shedDue));
  const retryAfter = concat(results.map((r) => r.retryAfterMs)).sort();
  const waitMs = LONG_POLL_WAIT_SECONDS * 1000;
  const longPoll = options.longPoll;
  // The latency a window is judged by: plain, send -> answer; long-poll, a held ping's overrun past its wait.
  const measure = (i: number) => (longPoll ? (okKind[i] === KIND_HELD ? okLatency[i]! - waitMs : NaN) : okLatency[i]!);
  const errorKinds: Record<string, number> = {};
  const failures: { due: number }[] = [];
  for (const r of results) {
    r.failKind.forEach((k, i) => {
      const name = r.failKinds[k]!;
      errorKinds[name] = (errorKinds[name] ?? 0) + 1;
      failures.push({ due: r.failDue[i]! });
    });
  }
  const windows = input.windows.map((w): WindowResult => {
    const values: number[] = [];
    for (let i = 0; i < okDue.length; i++) {
      if (okDue[i]! >= w.fromMs && okDue[i]! < w.toMs) {
        const value = measure(i);
        if (!Number.isNaN(value)) values.push(value);
      }
    }
    let shed = 0;
    shedDue.forEach((due) => (shed += due >= w.fromMs && due < w.toMs ? 1 : 0));
    return {
      name: w.name,
      label: w.label,
      latency: spread(values),
      failed: failures.filter((f) => f.due >= w.fromMs && f.due < w.toMs).length,
      shed,
    };
  });
  const all: number[] = [];
  const fromSchedule: number[] = [];
  const held: number[] = [];
  let commandAnswers = 0;
  for (let i = 0; i < okDue.length; i++) {
    const value = measure(i);
    if (!Number.isNaN(value)) all.push(value);
    fromSchedule.push(okSendDelay[i]! + okLatency[i]!);
    if (okKind[i] === KIND_HELD) held.push(okLatency[i]!);
    if (okKind[i] === KIND_COMMAND) commandAnswers++;
  }
  const ok = sum((r) => r.ok);
  const retries = sum((r) => r.retries);
  // Answers that arrived in the steady state (due + send delay + latency: when the answer came).
  const durationMs = options.durationSeconds * 1000;
  let steadyAnswered = 0;
  for (let i = 0; i < okDue.length; i++) {
    const answeredAt = okDue[i]! + okSendDelay[i]! + okLatency[i]!;
    if (answeredAt >= STEADY_FROM_MS && answeredAt < durationMs) steadyAnswered++;
  }
  const firstAnswers: number[] = [];
  let never = 0;
  for (const at of firstOk) {
    if (Number.isNaN(at)) never++;
    else firstAnswers.push(at);
  }
  const timerLate = spread(concat(results.map((r) => r.timerLate)));
  const loopDelayP99Ms = Math.max(0, ...results.map((r) => r.loopDelay.p99Ms));
  const margins = results.map((r) => r.retryMarginMinMs).filter(Number.isFinite);
  const retryMarginMinMs = margins.length ? Math.min(...margins) : null;
  const watch = input.watchers;
  return {
    kind: options.kind,
    shape: options.shape.label,
    baseline: options.shape.baseline,
    mode: longPoll ? 'long-poll' : 'plain',
    servers: options.shape.servers,
    users: options.shape.users,
    instances: options.bases.length,
    registerSeconds: input.registerSeconds,
    durationSeconds: options.durationSeconds,
    gamesPerConnection: input.perConnection,
    plannedPerSecond: options.shape.servers / (PING_INTERVAL_MS / 1000),
    offeredPerSecond: sum((r) => r.sent) / elapsedSeconds,
    answeredPerSecond: ok / elapsedSeconds,
    planned: sum((r) => r.planned),
    sent: sum((r) => r.sent),
    ok,
    failed: sum((r) => r.failed),
    timeouts: sum((r) => r.timeouts),
    errorKinds,
    shed: sum((r) => r.shed),
    shedWithoutRetryAfter: sum((r) => r.shedWithoutRetryAfter),
    retries,
    retryAfterSeconds: retryAfter.length
      ? {
          min: retryAfter[0]! / 1000,
          median: percentile(retryAfter, 0.5) / 1000,
          max: retryAfter[retryAfter.length - 1]! / 1000,
        }
      : null,
    // A timer may fire up to a millisecond early (Node rounds); anything sooner is not honouring it.
    retryAfterHonoured: retryMarginMinMs === null ? null : retryMarginMinMs >= -1,
    retryMarginMinMs,
    heldByRetryAfter: sum((r) => r.heldByRetryAfter),
    unretried: sum((r) => r.unretried),
    waited: sum((r) => r.waited),
    skipped: sum((r) => r.skipped),
    latency: spread(all),
    fromSchedule: spread(fromSchedule),
    windows,
    firstAnswer: {
      spread: spread(firstAnswers),
      later: firstAnswers.filter((at) => at > STORM_CONNECTED_WITHIN_MS).length,
      never,
    },
    steady: {
      answered: steadyAnswered,
      cpuUsPerPing: (input.cpuSteadySeconds * 1e6) / Math.max(1, steadyAnswered),
    },
    broadcasts: input.broadcasts,
    longPoll: longPoll ? { held: spread(held), commandAnswers } : null,
    console: options.consoleLinesPerSecond
      ? {
          linesPerServerPerSecond: options.consoleLinesPerSecond,
          lines: sum((r) => r.consoleLines),
          linesPerSecond: sum((r) => r.consoleLines) / elapsedSeconds,
          dropped: sum((r) => r.consoleDropped),
        }
      : null,
    probes: {
      sent: input.probe.sent,
      delivered: input.probe.delivered,
      lost: input.probe.lost,
      noLiveGame: input.probe.noLiveGame,
      refused: input.probe.refused,
      onNextPing: input.probe.onNextPing,
      latency: spread(input.probe.latencies),
      postLatency: spread(input.probe.postLatencies),
    },
    dashboards: watch ? { user: watch.user.result(), admin: watch.admin?.result() ?? null } : null,
    server: {
      cpuPercent: input.server.cpuPercent,
      cpuUsPerPing: (input.server.cpuSeconds * 1e6) / Math.max(1, ok),
      loopRunningPercent: input.server.loopRunningPercent,
      loopWaitPercent: input.server.loopWaitPercent,
      listenBacklog: input.server.listenBacklog,
      listenOverflows: input.server.listenOverflows,
      rssBeforeMb: input.server.rssBeforeMb,
      rssEndMb: input.server.rssEndMb,
      rssPeakSampledMb: input.server.rssPeakSampledMb,
      vmHwmMb: input.server.vmHwmMb,
      rssPerServerKb: input.server.rssPerServerKb,
    },
    generator: {
      threads: input.threads,
      cpuPercent: input.benchCpuPercent,
      waitPercent: input.benchWaitPercent,
      timerLate,
      loopDelayP99Ms,
      loopDelayMaxMs: Math.max(0, ...results.map((r) => r.loopDelay.maxMs)),
      eventLoopUtilizationMax: Math.max(...results.map((r) => r.eventLoopUtilization)),
      mainLoopDelayP99Ms: input.mainLoopDelayP99Ms,
      connects: sum((r) => r.connects),
      connectTime: spread(concat(results.map((r) => r.connectTimes))),
      maxInFlight: sum((r) => r.maxInFlight),
      behind:
        timerLate.p99Ms > LAG_TOLERANCE_MS ||
        loopDelayP99Ms > LAG_TOLERANCE_MS ||
        input.mainLoopDelayP99Ms > LAG_TOLERANCE_MS,
    },
    machine: input.machine,
  };
}

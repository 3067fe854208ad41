/**
 * One thread of the fleet's load generator: bench/support/fleet-phase.ts starts one or more of
 * these, gives each a share of the simulated game servers, and merges what they measured.
 *
 * Each game server has its own keep-alive connection (raw-http.ts) and pings like the shipped
 * integration script (docs/protocol.md):
 * - plain: on a fixed schedule, one ping every interval (the first ones spread over the first
 *   interval). A game never has two pings in flight: a ping due while the previous one is
 *   unanswered waits for it, and if yet another comes due meanwhile the older one is dropped
 *   (counted as skipped: the server was too slow to keep up);
 * - long-poll: every ping carries `wait`, and the next one goes out as soon as the answer arrives,
 *   paced to at most one per interval when an answer comes back early without a command.
 * Commands in an answer are "run" at once and their results go up with the next ping; a broadcast
 * (an 'execute' whose code names its number, fleet-messages.ts) is counted per broadcast, not per
 * id, and reported to the driver in batches. A 503 (or
 * 429) with Retry-After is counted apart (shed) and the same ping is sent again after
 * max(Retry-After, interval) plus up to as much again at random, as the shipped script does; the
 * schedule's pings due meanwhile are not sent (held). Unlike the script, a failure without
 * Retry-After (an error, a timeout) does not back off: the schedule keeps the planned rate.
 * Times are epoch milliseconds with sub-millisecond precision (performance.timeOrigin + now()),
 * comparable between threads.
 *
 * Games share a connection only when setup.gamesPerConnection > 1 (a fleet larger than the sockets
 * one process may hold): game k of this thread then uses connection k % connections, so the games
 * on one connection are due about an interval / gamesPerConnection apart, and a ping waits for the
 * one before it on that connection (its latency includes that wait).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { CONSOLE_BATCH_MAX_LINES } from '@moonrelay/contract/constants';
import type { CommandResult, GamePingResponse } from '@moonrelay/contract/game';
import {
  BROADCAST_CODE,
  KIND_COMMAND,
  KIND_HELD,
  KIND_PLAIN,
  type BroadcastArrivals,
  type FromGenerator,
  type GeneratorResult,
  type GeneratorSetup,
  type ToGenerator,
} from './fleet-messages.ts';
import { pingBody, playerData } from './game-client.ts';
import { RawHttpConnection, RawHttpError, type RawAnswer } from './raw-http.ts';
import { percentile, Series } from './stats.ts';

interface Sim {
  index: number;
  key: string;
  serverId: string;
  conn: Lane;
  step: number;
  inFlight: boolean;
  /** Plain: a ping that came due while the previous one was in flight (its due time). */
  deferred: number | null;
  /** No ping before this (epoch ms): a retry after Retry-After is waiting. */
  backoffUntil: number;
  results: CommandResult[];
  seen: Set<string>;
  watched: boolean;
  /** When its last ping was answered with 200, and its first (epoch ms; 0 and NaN until then). */
  lastOkAt: number;
  firstOkAt: number;
  /** Broadcasts this game has taken (a copy delivered again is not counted twice). */
  broadcasts: Set<number>;
  /** Console: lines are owed from this moment (epoch ms; 0 until the first ping), and how many it has logged. */
  linesFrom: number;
  lineCount: number;
}

const setup = workerData as GeneratorSetup;
const port = parentPort!;
const post = (message: FromGenerator, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const now = () => performance.timeOrigin + performance.now();
const LOOP_RESOLUTION_MS = 1;
const PROGRESS_EVERY_MS = 1_000;
const EMPTY_COMMANDS = '"commands":[]';
const PING_PATH = '/api/game/ping';

/** One TCP connection and the games on it: their requests go one at a time, in the order they were made. */
class Lane {
  private readonly queue: (() => void)[] = [];
  private busy = false;
  constructor(readonly conn: RawHttpConnection) {}

  request(method: string, path: string, body: string, timeoutMs: number): Promise<RawAnswer> {
    return new Promise<RawAnswer>((resolve, reject) => {
      const go = () => {
        this.busy = true;
        this.conn.request(method, path, body, timeoutMs).then(
          (answer) => {
            this.next();
            resolve(answer);
          },
          (error: unknown) => {
            this.next();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      };
      if (this.busy) this.queue.push(go);
      else go();
    });
  }

  private next(): void {
    this.busy = false;
    this.queue.shift()?.();
  }
}

const perConnection = Math.max(1, setup.gamesPerConnection);
const lanes = Array.from(
  { length: Math.ceil(setup.servers.length / perConnection) },
  (_, i) => new Lane(new RawHttpConnection(setup.host, setup.servers[i]!.port)),
);
const sims: Sim[] = setup.servers.map((s, k) => ({
  index: s.index,
  key: s.key,
  serverId: s.serverId,
  conn: lanes[k % lanes.length]!,
  step: 0,
  inFlight: false,
  deferred: null,
  backoffUntil: 0,
  results: [],
  seen: new Set(),
  watched: false,
  lastOkAt: 0,
  firstOkAt: NaN,
  broadcasts: new Set(),
  linesFrom: 0,
  lineCount: 0,
}));
const byIndex = new Map(sims.map((sim) => [sim.index, sim]));

let startAt = 0;
let endAt = 0;
let stopped = false;
const timers = new Set<NodeJS.Timeout>();
const counts = {
  planned: 0,
  sent: 0,
  retries: 0,
  ok: 0,
  shed: 0,
  shedWithoutRetryAfter: 0,
  heldByRetryAfter: 0,
  unretried: 0,
  failed: 0,
  timeouts: 0,
  waited: 0,
  skipped: 0,
  consoleLines: 0,
  consoleDropped: 0,
};
const okDue = new Series();
const okLatency = new Series();
const okSendDelay = new Series();
const okKind = new Series();
const failDue = new Series();
const failKind = new Series();
const failKinds: string[] = [];
const shedDue = new Series();
const retryAfterMs = new Series();
let retryMarginMinMs = Infinity;
const timerLate = new Series();
let inFlight = 0;
let maxInFlight = 0;
let progressLatencies = new Series();
let progressTimerLate = new Series();
let lastProgress = { sent: 0, ok: 0, shed: 0, failed: 0 };

function later(at: number, work: () => void): void {
  const timer = setTimeout(
    () => {
      timers.delete(timer);
      if (stopped) return;
      const late = Math.max(0, now() - at);
      timerLate.push(late);
      progressTimerLate.push(late);
      work();
    },
    Math.max(0, at - now()),
  );
  timers.add(timer);
}

function kindOf(name: string): number {
  let i = failKinds.indexOf(name);
  if (i < 0) i = failKinds.push(name) - 1;
  return i;
}

/**
 * What a busy game prints: mostly output, some warnings, an error with its stack now and then,
 * each a realistic 60-100 characters (the stack ~150). Pre-built as JSON, `@T` standing for the time.
 */
const LINE_SHAPES = [
  '{"time":@T,"level":"output","text":"[Rounds] Round @N started with 24 players on map Crossroads (mode: teams)"}',
  '{"time":@T,"level":"output","text":"[Economy] Builderman bought Sword of Light for 1200 coins; balance 3400"}',
  '{"time":@T,"level":"output","text":"[Spawner] spawned wave @N: 12 zombies, 2 bosses at SpawnLocation3"}',
  '{"time":@T,"level":"info","text":"[DataStore] saved profile of player 156 in 42 ms (attempt 1)"}',
  '{"time":@T,"level":"warning","text":"[DataStore] request was added to queue. If request queue fills, further requests will be dropped."}',
  '{"time":@T,"level":"output","text":"[Combat] Builderman hit Zombie @N for 35 damage (crit: false, weapon: Sword)"}',
  '{"time":@T,"level":"output","text":"[Rounds] Red team scored, 3-2, time left 01:42"}',
  '{"time":@T,"level":"error","text":"ServerScriptService.Saves:12: DataStore request was throttled","stack":"ServerScriptService.Saves:12 function save\\nServerScriptService.Saves:30 function onLeave\\nServerScriptService.Saves:41\\n","script":"ServerScriptService.Saves"}',
];

/** The console field of a ping: the lines logged since the last one (at most a batch; the rest dropped). */
function consoleField(sim: Sim, at: number): { json: string; lines: number; dropped: number } | null {
  const rate = setup.consoleLinesPerSecond;
  if (rate <= 0) return null;
  if (sim.linesFrom === 0) {
    sim.linesFrom = at;
    return null;
  }
  const owed = Math.floor(((at - sim.linesFrom) * rate) / 1000);
  if (owed <= 0) return null;
  sim.linesFrom += (owed * 1000) / rate;
  const lines = Math.min(owed, CONSOLE_BATCH_MAX_LINES);
  const parts: string[] = [];
  const time = String(Math.floor(at));
  for (let i = 0; i < lines; i++) {
    const n = sim.lineCount++;
    // One error a hundred lines, the rest spread over the other shapes.
    const shape = n % 100 === 99 ? LINE_SHAPES[LINE_SHAPES.length - 1]! : LINE_SHAPES[n % (LINE_SHAPES.length - 1)]!;
    parts.push(shape.replace('@T', time).replace('@N', String(n)));
  }
  const dropped = owed - lines;
  return {
    json: `{"lines":[${parts.join(',')}]${dropped > 0 ? `,"dropped":${dropped}` : ''}}`,
    lines,
    dropped,
  };
}

/** Broadcasts taken since the last report to the driver, by number. */
let broadcastArrivals = new Map<number, BroadcastArrivals>();

function reportBroadcasts(): void {
  if (broadcastArrivals.size === 0) return;
  post({ type: 'broadcasts', arrivals: [...broadcastArrivals.values()] });
  broadcastArrivals = new Map();
}

/** Which broadcast a command is (its number), or null for any other command. */
function broadcastNumber(command: GamePingResponse['commands'][number]): number | null {
  if (command.type !== 'execute') return null;
  const code = (command.data as { code?: unknown }).code;
  const match = typeof code === 'string' ? BROADCAST_CODE.exec(code) : null;
  return match ? Number(match[1]) : null;
}

/** Takes the commands an answer carries (each one once; its result goes up with the next ping). */
function takeCommands(sim: Sim, body: string, at: number): string[] {
  if (body.includes(EMPTY_COMMANDS)) return [];
  const { commands } = JSON.parse(body) as GamePingResponse;
  const ids: string[] = [];
  for (const command of commands) {
    ids.push(command.id);
    const n = broadcastNumber(command);
    let output = '';
    if (n !== null) {
      // As the shipped script reports an execute: what the code printed.
      output = `bench-broadcast ${n}\n`;
      if (!sim.broadcasts.has(n)) {
        sim.broadcasts.add(n);
        const seen = broadcastArrivals.get(n);
        if (seen) {
          seen.games++;
          seen.lastAt = Math.max(seen.lastAt, at);
        } else broadcastArrivals.set(n, { n, games: 1, firstAt: at, lastAt: at });
      }
    } else if (!sim.seen.has(command.id)) {
      sim.seen.add(command.id);
      post({ type: 'command', index: sim.index, id: command.id, at });
    }
    sim.results.push({ id: command.id, success: true, output, error: null, durationMs: 0 });
  }
  return ids;
}

/**
 * Sends one ping; `due` is when the schedule wanted it (a retry keeps its ping's due time).
 * `after` runs once it is over, with the moment the next one may go (long-poll pacing).
 */
function send(sim: Sim, due: number, retry: boolean, after: (next: number) => void): void {
  const sentAt = now();
  counts.sent++;
  if (retry) counts.retries++;
  sim.inFlight = true;
  maxInFlight = Math.max(maxInFlight, ++inFlight);
  const results = sim.results.splice(0, 20);
  const wait = setup.longPoll ? setup.waitSeconds : 0;
  const consoleBatch = consoleField(sim, sentAt);
  let body = pingBody(sim.key, sim.serverId, playerData('builderman', 156, 1818, sim.step++), results, wait);
  if (consoleBatch) body = `${body.slice(0, -1)},"console":${consoleBatch.json}}`;
  const dueRel = due - startAt;
  const done = (next: number) => {
    inFlight--;
    sim.inFlight = false;
    after(next);
  };
  sim.conn.request('POST', PING_PATH, body, setup.pingTimeoutMs + wait * 1000).then(
    (answer) => {
      const at = now();
      if (answer.status === 200) {
        counts.ok++;
        sim.lastOkAt = at;
        if (Number.isNaN(sim.firstOkAt)) sim.firstOkAt = at;
        if (consoleBatch) {
          counts.consoleLines += consoleBatch.lines;
          counts.consoleDropped += consoleBatch.dropped;
        }
        let ids: string[] = [];
        try {
          ids = takeCommands(sim, answer.body, at);
        } catch {
          // An answer that is not the ping's JSON: counted as malformed below, not as answered.
          counts.ok--;
          fail(sim, results, dueRel, 'malformed answer');
          return done(sentAt + setup.intervalMs);
        }
        if (sim.watched) post({ type: 'answer', index: sim.index, at, status: 200, ids });
        const kind = ids.length ? KIND_COMMAND : setup.longPoll ? KIND_HELD : KIND_PLAIN;
        okDue.push(dueRel);
        okLatency.push(at - sentAt);
        okSendDelay.push(sentAt - due);
        okKind.push(kind);
        progressLatencies.push(setup.longPoll ? (kind === KIND_HELD ? at - sentAt - wait * 1000 : NaN) : at - sentAt);
        // Long-poll: again at once after a command (but not sooner than minGapMs after this one went
        // out), else not before one interval after it.
        return done(Math.max(at, sentAt + (ids.length ? setup.minGapMs : setup.intervalMs)));
      }
      sim.results.unshift(...results);
      if (sim.watched) post({ type: 'answer', index: sim.index, at, status: answer.status, ids: [] });
      const backoff = answer.status === 503 || answer.status === 429;
      if (answer.status === 503) {
        counts.shed++;
        shedDue.push(dueRel);
      } else {
        fail(sim, [], dueRel, `HTTP ${answer.status}`);
      }
      if (backoff && Number.isFinite(answer.retryAfterSeconds)) {
        retryAfterMs.push(answer.retryAfterSeconds * 1000);
        // As the shipped script: at least one interval, plus up to as much again at random.
        const base = Math.max(answer.retryAfterSeconds * 1000, setup.intervalMs);
        const retryAt = at + base * (1 + Math.random() * setup.retryJitter);
        sim.backoffUntil = retryAt;
        if (sim.deferred !== null) {
          counts.heldByRetryAfter++;
          sim.deferred = null;
        }
        if (retryAt > endAt + setup.retryGraceMs) {
          counts.unretried++;
          return done(Infinity);
        }
        inFlight--;
        sim.inFlight = false;
        return later(retryAt, () => {
          retryMarginMinMs = Math.min(retryMarginMinMs, now() - at - answer.retryAfterSeconds * 1000);
          send(sim, due, true, after);
        });
      }
      if (answer.status === 503) counts.shedWithoutRetryAfter++;
      return done(sentAt + setup.intervalMs);
    },
    (error: unknown) => {
      sim.results.unshift(...results);
      const code = error instanceof RawHttpError ? error.code : 'error';
      if (code === 'timeout') counts.timeouts++;
      fail(sim, [], dueRel, code === 'timeout' ? 'timeout' : code);
      done(Math.max(now(), sentAt + setup.intervalMs));
    },
  );
}

function fail(sim: Sim, results: CommandResult[], dueRel: number, kind: string): void {
  sim.results.unshift(...results);
  counts.failed++;
  failDue.push(dueRel);
  failKind.push(kindOf(kind));
}

/** Plain: ping k of a server is due at its first due time + k intervals. */
function schedulePlain(sim: Sim, due: number): void {
  if (due >= endAt) return;
  counts.planned++;
  later(due, () => {
    schedulePlain(sim, due + setup.intervalMs);
    if (now() < sim.backoffUntil) {
      counts.heldByRetryAfter++;
      return;
    }
    if (!sim.inFlight) return send(sim, due, false, afterPlain(sim));
    if (sim.deferred !== null) counts.skipped++;
    else counts.waited++;
    sim.deferred = due;
  });
}

function afterPlain(sim: Sim): (next: number) => void {
  return () => {
    if (sim.deferred === null || stopped) return;
    const due = sim.deferred;
    sim.deferred = null;
    if (now() < sim.backoffUntil) {
      counts.heldByRetryAfter++;
      return;
    }
    send(sim, due, false, afterPlain(sim));
  };
}

/** Long-poll: the next ping goes out at `next` (at once after a command, else paced to one per interval). */
function scheduleLongPoll(sim: Sim, at: number): void {
  if (at >= endAt) return;
  counts.planned++;
  later(at, () => send(sim, at, false, (next) => scheduleLongPoll(sim, next)));
}

const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
let eluStart = performance.eventLoopUtilization();
let progressTimer: NodeJS.Timeout | undefined;
let broadcastTimer: NodeJS.Timeout | undefined;
/** Broadcast arrivals go to the driver this often (batched: a broadcast reaches every game at once). */
const BROADCASTS_EVERY_MS = 50;

function progress(): void {
  const latencies = progressLatencies.values();
  post(
    {
      type: 'progress',
      sent: counts.sent - lastProgress.sent,
      ok: counts.ok - lastProgress.ok,
      shed: counts.shed - lastProgress.shed,
      failed: counts.failed - lastProgress.failed,
      inFlight,
      latencies,
      timerLateP99: percentile(progressTimerLate.values(), 0.99),
    },
    [latencies.buffer as ArrayBuffer],
  );
  lastProgress = { sent: counts.sent, ok: counts.ok, shed: counts.shed, failed: counts.failed };
  progressLatencies = new Series();
  progressTimerLate = new Series();
}

async function start(at: number, end: number): Promise<void> {
  startAt = at;
  endAt = end;
  loopDelay.enable();
  eluStart = performance.eventLoopUtilization();
  progressTimer = setInterval(progress, PROGRESS_EVERY_MS);
  broadcastTimer = setInterval(reportBroadcasts, BROADCASTS_EVERY_MS);
  sims.forEach((sim, i) => {
    const offset =
      setup.spread === 'even' ? ((i + Math.random()) * setup.spreadMs) / sims.length : Math.random() * setup.spreadMs;
    if (setup.longPoll) scheduleLongPoll(sim, at + offset);
    else schedulePlain(sim, at + offset);
  });
  const waitUntil = (t: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, t - now())));
  await waitUntil(endAt);
  const elu = performance.eventLoopUtilization(eluStart).utilization;
  loopDelay.disable();
  // The last pings (and retries due within the grace) may still be on their way: bounded by their timeout.
  const drainUntil = endAt + setup.retryGraceMs + setup.pingTimeoutMs + setup.waitSeconds * 1000 + 1_000;
  while ((inFlight > 0 || timers.size > 0) && now() < drainUntil) await waitUntil(now() + 50);
  stopped = true;
  clearInterval(progressTimer);
  clearInterval(broadcastTimer);
  progress();
  reportBroadcasts();
  timers.forEach(clearTimeout);
  const connectTimes = new Series();
  let connects = 0;
  for (const { conn } of lanes) {
    connects += conn.connects;
    conn.connectTimes.forEach((t) => connectTimes.push(t));
    conn.close();
  }
  const firstOk = Float64Array.from(sims, (sim) => sim.firstOkAt - startAt);
  const loopMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - LOOP_RESOLUTION_MS);
  const result: GeneratorResult = {
    ...counts,
    okDue: okDue.values(),
    okLatency: okLatency.values(),
    okSendDelay: okSendDelay.values(),
    okKind: okKind.values(),
    failDue: failDue.values(),
    failKind: failKind.values(),
    failKinds,
    shedDue: shedDue.values(),
    retryAfterMs: retryAfterMs.values(),
    retryMarginMinMs,
    timerLate: timerLate.values(),
    loopDelay: {
      p50Ms: loopMs(loopDelay.percentile(50)),
      p99Ms: loopMs(loopDelay.percentile(99)),
      maxMs: loopMs(loopDelay.max),
    },
    eventLoopUtilization: elu,
    connects,
    connectTimes: connectTimes.values(),
    maxInFlight,
    firstOk,
  };
  post({ type: 'done', result }, [
    result.okDue.buffer,
    result.okLatency.buffer,
    result.okSendDelay.buffer,
    result.okKind.buffer,
    result.failDue.buffer,
    result.failKind.buffer,
    result.shedDue.buffer,
    result.retryAfterMs.buffer,
    result.timerLate.buffer,
    result.connectTimes.buffer,
    result.firstOk.buffer,
  ] as ArrayBuffer[]);
}

port.on('message', (message: ToGenerator) => {
  switch (message.type) {
    case 'start':
      start(message.startAt, message.endAt).catch((error: unknown) =>
        post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
      break;
    case 'watch-live': {
      const live = sims.filter((sim) => !sim.watched && now() - sim.lastOkAt < 2 * setup.intervalMs);
      const sim = live[Math.floor(Math.random() * live.length)];
      if (sim) sim.watched = true;
      post({ type: 'watching', ticket: message.ticket, index: sim?.index ?? -1 });
      break;
    }
    case 'unwatch': {
      const sim = byIndex.get(message.index);
      if (sim) sim.watched = false;
      break;
    }
    case 'stop':
      stopped = true;
      clearInterval(progressTimer);
      clearInterval(broadcastTimer);
      timers.forEach(clearTimeout);
      lanes.forEach((lane) => lane.conn.close());
      break;
  }
});
post({ type: 'ready' });

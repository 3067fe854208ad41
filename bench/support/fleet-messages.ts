/** What the fleet's generator threads (fleet-worker.ts) and their driver (fleet-phase.ts) tell each other. */

export interface GeneratorSetup {
  host: string;
  servers: { index: number; key: string; serverId: string; port: number }[];
  intervalMs: number;
  longPoll: boolean;
  /** `wait` of a long-poll ping, seconds. */
  waitSeconds: number;
  /** A plain ping's answer timeout; a long-poll's is this plus its wait. */
  pingTimeoutMs: number;
  /** The first pings are due within this long after the start: evenly spread (each jittered in its slot) or at random. */
  spreadMs: number;
  spread: 'even' | 'random';
  /** Long-poll: the least time between the starts of two pings (after an answer that brought commands). */
  minGapMs: number;
  /** A retry goes out after max(Retry-After, interval) x (1 + up to this much, at random). */
  retryJitter: number;
  /** Retries still go out this long after the end of the load window, so a shed ping near the end is not lost. */
  retryGraceMs: number;
  /**
   * Console lines each game server logs a second (0: none). Each ping carries the lines logged since
   * the previous one, at most CONSOLE_BATCH_MAX_LINES, the rest reported as `dropped` (as the
   * shipped script does past its queue).
   */
  consoleLinesPerSecond: number;
  /**
   * Games per TCP connection: 1 (each game its own socket, as a real fleet has), or more when the fleet
   * is larger than the sockets one process may hold here (its open-file limit): games then share
   * connections, a request waiting for the one before it on the same connection (plain pings only).
   */
  gamesPerConnection: number;
}

/**
 * The code of a broadcast command (an 'execute' with no serverId): the game reads which broadcast it
 * got from it, whatever ids the server gives each copy.
 */
export const broadcastCode = (n: number) => `print("bench-broadcast ${n}")`;
export const BROADCAST_CODE = /^print\("bench-broadcast (\d+)"\)$/;

/** Broadcasts that reached this thread's games since its last report: per broadcast, how many games and when. */
export interface BroadcastArrivals {
  n: number;
  games: number;
  firstAt: number;
  lastAt: number;
}

export type ToGenerator =
  | { type: 'start'; startAt: number; endAt: number }
  /** Pick a random game of this thread's whose last ping was answered within two intervals, and watch it. */
  | { type: 'watch-live'; ticket: number }
  | { type: 'unwatch'; index: number }
  | { type: 'stop' };

export interface GeneratorProgress {
  type: 'progress';
  sent: number;
  ok: number;
  shed: number;
  failed: number;
  inFlight: number;
  /** Plain: send -> answer of each answered ping since the last progress; long-poll: the held ones' overrun past `wait`. */
  latencies: Float64Array;
  timerLateP99: number;
}

export type FromGenerator =
  | { type: 'ready' }
  | GeneratorProgress
  /** The game picked for a 'watch-live' (index -1: none was live). */
  | { type: 'watching'; ticket: number; index: number }
  | { type: 'command'; index: number; id: string; at: number }
  | { type: 'answer'; index: number; at: number; status: number; ids: string[] }
  | { type: 'broadcasts'; arrivals: BroadcastArrivals[] }
  | { type: 'done'; result: GeneratorResult }
  | { type: 'failed'; message: string };

/** What an answered ping was: a plain one, a long-poll held to its end, an answer carrying commands. */
export const KIND_PLAIN = 0;
export const KIND_HELD = 1;
export const KIND_COMMAND = 2;

export interface GeneratorResult {
  /** Pings due by the schedule (plain) or paced sends (long-poll) within the load window. */
  planned: number;
  /** Requests sent, retries included. */
  sent: number;
  retries: number;
  ok: number;
  /** 503 answers (load shed), and those of them without a usable Retry-After. */
  shed: number;
  shedWithoutRetryAfter: number;
  /** Scheduled pings not sent because a retry after Retry-After was waiting. */
  heldByRetryAfter: number;
  /** Shed pings whose retry would have gone out after the run. */
  unretried: number;
  /** Errors: network errors, timeouts and other statuses than 200 and 503. */
  failed: number;
  timeouts: number;
  waited: number;
  skipped: number;
  /** Per answered ping: when it was due (ms after the start), send -> answer (ms), due -> send (ms), kind. */
  okDue: Float64Array;
  okLatency: Float64Array;
  okSendDelay: Float64Array;
  okKind: Float64Array;
  /** Per failed ping: when it was due, and its kind (an index into failKinds). */
  failDue: Float64Array;
  failKind: Float64Array;
  failKinds: string[];
  shedDue: Float64Array;
  retryAfterMs: Float64Array;
  /** The smallest (retry sent - shed answer) - Retry-After seen: >= 0 when every retry waited long enough. */
  retryMarginMinMs: number;
  /** How late this thread's timers fired (ms), and its event loop's delay and utilisation. */
  timerLate: Float64Array;
  loopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
  eventLoopUtilization: number;
  connects: number;
  connectTimes: Float64Array;
  maxInFlight: number;
  /** Console lines carried by answered pings, and lines reported dropped by them. */
  consoleLines: number;
  consoleDropped: number;
  /** Per game: when its first ping was answered 2xx (ms after the start; NaN: never). */
  firstOk: Float64Array;
}

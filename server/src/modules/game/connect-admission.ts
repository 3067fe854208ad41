import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Counter } from '../../platform/metrics.ts';

/** How often the event loop's delay is read. */
const SAMPLE_EVERY_MS = 250;
/** Refusing goes on this long after the last sample that was behind, so it does not flap. */
const HOLD_MS = 1_000;
/**
 * How long the event loop may stay behind before new game servers are refused. A restart storm
 * keeps it behind for a few seconds and then it is over: its work is bounded (one first ping per
 * server), and refusing part of it only makes it longer, since a refusal costs nearly what an
 * answer does (the connection, the request, the key check, a log line, the socket closed while
 * the game waits, then all of it again when the game comes back). Real overload does not end by
 * itself. Well inside GAME_CONNECTED_WINDOW_MS (10 s), so the connected servers queued behind a
 * storm are still answered before they would count as gone.
 */
const OVERLOAD_AFTER_MS = 5_000;
/** A refused game is told to come back after this many seconds, plus its own jitter (docs/protocol.md). */
const RETRY_AFTER_MIN_SECONDS = 2;
const RETRY_AFTER_SPREAD_SECONDS = 4;

export const GAME_LINK_BUSY = 'Moonrelay is busy; connect again after Retry-After seconds';

/** One reading of the event loop: when, and its longest delay since the reading before. */
export interface LoopSample {
  atMs: number;
  lagMs: number;
}

/**
 * The refusal policy, fed with readings of the event loop. A reading is behind when the loop was
 * late by more than `maxLagMs`; new game servers are refused once the readings have been behind
 * without a break for `overloadAfterMs` (from the start of the first one's span: the reading before
 * it, or as long ago as the loop was late, whichever is earlier), and for `holdMs` after the last
 * such reading. `maxLagMs` 0: never.
 *
 * How busy the loop was is not a sign: the share of time it is not idle counts the time it waits
 * for a CPU, so on a shared machine a server answering every ping within milliseconds reads 90 %
 * busy and more, and was refusing new servers for as long as its fleet kept it so. Requests waiting
 * for the loop make it late (each turn reads every socket that is ready; timers run between turns),
 * so its delay is their wait. Connects the kernel drops at a full accept queue are out of reach of
 * any refusal (a 503 needs the connection accepted first).
 */
export function createOverloadGauge(options: {
  maxLagMs: number;
  overloadAfterMs?: number;
  holdMs?: number;
  startMs: number;
}) {
  const overloadAfterMs = options.overloadAfterMs ?? OVERLOAD_AFTER_MS;
  const holdMs = options.holdMs ?? HOLD_MS;
  let previousAtMs = options.startMs;
  let behindSinceMs: number | null = null;
  let busyUntilMs = 0;
  return {
    observe(sample: LoopSample): void {
      if (options.maxLagMs <= 0) return; // Shedding turned off.
      // A loop late by lagMs was behind since then at least, whenever the reading before was taken.
      const spanStartMs = Math.min(previousAtMs, sample.atMs - sample.lagMs);
      previousAtMs = Math.max(previousAtMs, sample.atMs);
      if (sample.lagMs <= options.maxLagMs) {
        behindSinceMs = null;
        return;
      }
      behindSinceMs = Math.min(behindSinceMs ?? spanStartMs, spanStartMs);
      if (sample.atMs - behindSinceMs >= overloadAfterMs) busyUntilMs = sample.atMs + holdMs;
    },
    busyAt(nowMs: number): boolean {
      return busyUntilMs > nowMs;
    },
  };
}

/**
 * Load shedding for real overload. When the event loop has been late by more than `maxLagMs` in
 * every reading for OVERLOAD_AFTER_MS, game servers that are not connected yet are refused (503
 * with Retry-After) until it keeps up again; connected servers are always answered, so a live fleet
 * never flaps. A restart storm that the server clears within that time is taken whole; one it
 * cannot, and a steady load it cannot carry, are shed, and the shipped script comes back after the
 * Retry-After with jitter. `maxLagMs` 0 turns it off.
 */
export function createConnectAdmission(options: { maxLagMs: number; refused?: Counter }) {
  let histogram: IntervalHistogram | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const gauge = createOverloadGauge({ maxLagMs: options.maxLagMs, startMs: Date.now() });

  if (options.maxLagMs > 0) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const monitor = histogram;
    timer = setInterval(() => {
      // The histogram is in nanoseconds; its max is the longest the loop was late in this sample.
      gauge.observe({ atMs: Date.now(), lagMs: monitor.max / 1e6 });
      monitor.reset();
    }, SAMPLE_EVERY_MS);
    timer.unref();
  }

  return {
    /** Whether new connections are being refused now. */
    get busy() {
      return gauge.busyAt(Date.now());
    },
    /**
     * Takes a reading as the monitor does every SAMPLE_EVERY_MS (the tests give the reading of a
     * loop stalled for seconds this way, instead of keeping the machine busy that long).
     */
    observe: gauge.observe,
    /** Seconds a refused game should wait: spread, so the refused do not all come back at once. */
    retryAfterSeconds(): number {
      options.refused?.inc();
      return RETRY_AFTER_MIN_SECONDS + Math.floor(Math.random() * (RETRY_AFTER_SPREAD_SECONDS + 1));
    },
    close(): void {
      clearInterval(timer);
      histogram?.disable();
    },
  };
}

export type ConnectAdmission = ReturnType<typeof createConnectAdmission>;

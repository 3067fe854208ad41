import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import type { Counter } from '../../platform/metrics.ts';

/** How often the event loop's delay is read. */
const SAMPLE_EVERY_MS = 250;
/** Refusing goes on this long after the last sample that was behind, so it does not flap. */
const HOLD_MS = 1_000;
/**
 * Samples in a row that must be behind before refusing starts: one late sample is a garbage
 * collection or the machine lending the core elsewhere for a moment; an overloaded server is
 * late in every sample.
 */
const BEHIND_SAMPLES = 2;
/**
 * A sample is also behind when the event loop was busy this much of it: a saturated server answers
 * in order and its timers stay nearly on time, while the requests it has not read yet wait in the
 * kernel's queues, where no delay can be measured.
 */
const BUSY_UTILIZATION = 0.9;
/** A refused game is told to come back after this many seconds, plus its own jitter (docs/protocol.md). */
const RETRY_AFTER_MIN_SECONDS = 2;
const RETRY_AFTER_SPREAD_SECONDS = 4;

export const GAME_LINK_BUSY = 'Moonrelay is busy; connect again after Retry-After seconds';

/**
 * Load shedding for restart storms. When the event loop fell behind by more than `maxLagMs`, or was
 * busy 90 % of the time, in each of the last two samples, game servers that are not connected yet are refused (503 with Retry-After) until
 * it keeps up again; connected servers are always answered, so a live fleet never flaps. Refusing a
 * connect costs a fraction of serving it, and the shipped script comes back after the Retry-After
 * with jitter, which spreads a storm over several seconds instead of queueing it behind every
 * answer. `maxLagMs` 0 turns it off.
 */
export function createConnectAdmission(options: { maxLagMs: number; refused?: Counter }) {
  let histogram: IntervalHistogram | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let busyUntilMs = 0;
  let behindInARow = 0;

  if (options.maxLagMs > 0) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const monitor = histogram;
    let utilizationBefore: EventLoopUtilization = performance.eventLoopUtilization();
    timer = setInterval(() => {
      const utilization = performance.eventLoopUtilization(utilizationBefore);
      utilizationBefore = performance.eventLoopUtilization();
      // The histogram is in nanoseconds; its max is the longest the loop was late in this sample.
      const behind = monitor.max / 1e6 > options.maxLagMs || utilization.utilization >= BUSY_UTILIZATION;
      behindInARow = behind ? behindInARow + 1 : 0;
      if (behindInARow >= BEHIND_SAMPLES) busyUntilMs = Date.now() + HOLD_MS;
      monitor.reset();
    }, SAMPLE_EVERY_MS);
    timer.unref();
  }

  return {
    /** Whether new connections are being refused now. */
    get busy() {
      return busyUntilMs > Date.now();
    },
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

/**
 * Pacing shared by every instance of the scale-out mode, for calls to a third party that must stay
 * under a rate for the whole deployment (the script catalogue: about one call a second). Each
 * instance still queues its own calls; before one starts, it reserves a start time here. The
 * embedded mode has one process and needs none.
 */
export interface SharedPacer {
  /**
   * Reserves the next start, at least `intervalMs` after the last one reserved by any instance, and
   * answers how long to wait for it; or null, reserving nothing, when that wait would exceed `maxWaitMs`.
   */
  reserve(intervalMs: number, maxWaitMs: number): Promise<number | null>;
  /** Stops every instance's calls for `ms` (a 429); a longer pause already running is kept. */
  pause(ms: number): Promise<void>;
  /** How much of a pause is left, 0 when none. */
  pausedFor(): Promise<number>;
}

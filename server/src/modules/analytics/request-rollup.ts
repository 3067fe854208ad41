/**
 * The in-memory half of request metrics: counts per user, endpoint and minute, built on the
 * request's path at the cost of three map lookups and an increment (no allocation once a user's
 * endpoint has a bucket in the current minute), and taken away whole by the flush.
 */

export const MINUTE_MS = 60_000;

interface Bucket {
  requests: number;
  errors: number;
  totalMs: number;
  maxMs: number;
}

/** One row of the request_metrics table, as a flush writes it. */
export interface RequestMetricRow {
  userId: string;
  /** ISO 8601 UTC start of the minute. */
  minute: string;
  /** Method and route pattern, e.g. "GET /api/scripts/:id". */
  endpoint: string;
  requestCount: number;
  errorCount: number;
  totalDurationMs: number;
  maxDurationMs: number;
}

export interface RequestRollup {
  /** Counts one answered request. `at` is epoch milliseconds. */
  record(userId: string, endpoint: string, at: number, durationMs: number, isError: boolean): void;
  /** Takes every bucket counted so far (as rows) and starts empty. */
  drain(): RequestMetricRow[];
  /** Adds rows back (a flush that failed), merging with what was counted meanwhile. */
  restore(rows: RequestMetricRow[]): void;
  /** Buckets held. */
  readonly size: number;
}

export function createRequestRollup(): RequestRollup {
  // minute (epoch ms) -> user -> endpoint -> bucket
  let minutes = new Map<number, Map<string, Map<string, Bucket>>>();
  let size = 0;

  const add = (minute: number, userId: string, endpoint: string, counts: Bucket) => {
    let users = minutes.get(minute);
    if (!users) minutes.set(minute, (users = new Map()));
    let endpoints = users.get(userId);
    if (!endpoints) users.set(userId, (endpoints = new Map()));
    const bucket = endpoints.get(endpoint);
    if (!bucket) {
      endpoints.set(endpoint, { ...counts });
      size++;
      return;
    }
    bucket.requests += counts.requests;
    bucket.errors += counts.errors;
    bucket.totalMs += counts.totalMs;
    if (counts.maxMs > bucket.maxMs) bucket.maxMs = counts.maxMs;
  };

  return {
    record(userId, endpoint, at, durationMs, isError) {
      const minute = at - (at % MINUTE_MS);
      const bucket = minutes.get(minute)?.get(userId)?.get(endpoint);
      if (bucket) {
        bucket.requests++;
        if (isError) bucket.errors++;
        bucket.totalMs += durationMs;
        if (durationMs > bucket.maxMs) bucket.maxMs = durationMs;
        return;
      }
      add(minute, userId, endpoint, { requests: 1, errors: isError ? 1 : 0, totalMs: durationMs, maxMs: durationMs });
    },

    drain() {
      const taken = minutes;
      minutes = new Map();
      size = 0;
      const rows: RequestMetricRow[] = [];
      for (const [minute, users] of taken) {
        const iso = new Date(minute).toISOString();
        for (const [userId, endpoints] of users) {
          for (const [endpoint, bucket] of endpoints) {
            rows.push({
              userId,
              minute: iso,
              endpoint,
              requestCount: bucket.requests,
              errorCount: bucket.errors,
              totalDurationMs: bucket.totalMs,
              maxDurationMs: bucket.maxMs,
            });
          }
        }
      }
      return rows;
    },

    restore(rows) {
      for (const row of rows) {
        add(Date.parse(row.minute), row.userId, row.endpoint, {
          requests: row.requestCount,
          errors: row.errorCount,
          totalMs: row.totalDurationMs,
          maxMs: row.maxDurationMs,
        });
      }
    },

    get size() {
      return size;
    },
  };
}

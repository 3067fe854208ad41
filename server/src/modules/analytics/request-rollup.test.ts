import { describe, expect, it } from 'vitest';
import { createRequestRollup, MINUTE_MS, type RequestMetricRow } from './request-rollup.ts';

const T0 = Date.parse('2026-11-22T10:15:00.000Z');
const byKey = (rows: RequestMetricRow[]) =>
  Object.fromEntries(rows.map((row) => [`${row.userId} ${row.endpoint} ${row.minute}`, row]));

describe('request roll-up (in memory)', () => {
  it('keeps one bucket per user, endpoint and minute, however many requests', () => {
    const rollup = createRequestRollup();
    for (let i = 0; i < 1000; i++) rollup.record('u1', 'POST /api/game/ping', T0 + (i % 60) * 1000, 1, false);
    expect(rollup.size).toBe(1);
    const [row] = rollup.drain();
    expect(row).toEqual({
      userId: 'u1',
      minute: '2026-11-22T10:15:00.000Z',
      endpoint: 'POST /api/game/ping',
      requestCount: 1000,
      errorCount: 0,
      totalDurationMs: 1000,
      maxDurationMs: 1,
    });
  });

  it('sums counts, errors and durations, and keeps the longest', () => {
    const rollup = createRequestRollup();
    rollup.record('u1', 'GET /api/scripts', T0, 2.5, false);
    rollup.record('u1', 'GET /api/scripts', T0 + 10_000, 7.25, true);
    rollup.record('u1', 'GET /api/scripts', T0 + 59_999, 0.25, true);
    expect(rollup.drain()).toEqual([
      {
        userId: 'u1',
        minute: '2026-11-22T10:15:00.000Z',
        endpoint: 'GET /api/scripts',
        requestCount: 3,
        errorCount: 2,
        totalDurationMs: 10,
        maxDurationMs: 7.25,
      },
    ]);
  });

  it('splits by user, by endpoint and at the minute boundary', () => {
    const rollup = createRequestRollup();
    rollup.record('u1', 'GET /api/scripts', T0 + MINUTE_MS - 1, 1, false);
    rollup.record('u1', 'GET /api/scripts', T0 + MINUTE_MS, 1, false);
    rollup.record('u2', 'GET /api/scripts', T0, 1, false);
    rollup.record('u1', 'PUT /api/scripts/:id', T0, 1, false);
    expect(rollup.size).toBe(4);
    const rows = byKey(rollup.drain());
    expect(Object.keys(rows).sort()).toEqual([
      'u1 GET /api/scripts 2026-11-22T10:15:00.000Z',
      'u1 GET /api/scripts 2026-11-22T10:16:00.000Z',
      'u1 PUT /api/scripts/:id 2026-11-22T10:15:00.000Z',
      'u2 GET /api/scripts 2026-11-22T10:15:00.000Z',
    ]);
  });

  it('starts empty after a drain', () => {
    const rollup = createRequestRollup();
    rollup.record('u1', 'GET /api/scripts', T0, 1, false);
    expect(rollup.drain()).toHaveLength(1);
    expect(rollup.size).toBe(0);
    expect(rollup.drain()).toEqual([]);
    rollup.record('u1', 'GET /api/scripts', T0, 1, false);
    expect(rollup.drain()[0]!.requestCount).toBe(1);
  });

  it('merges rows put back after a failed flush with what was counted meanwhile', () => {
    const rollup = createRequestRollup();
    rollup.record('u1', 'GET /api/scripts', T0, 4, false);
    rollup.record('u1', 'GET /api/user', T0, 1, true);
    const failed = rollup.drain();
    rollup.record('u1', 'GET /api/scripts', T0 + 1000, 9, true);
    rollup.restore(failed);
    expect(rollup.size).toBe(2);
    const rows = byKey(rollup.drain());
    expect(rows['u1 GET /api/scripts 2026-11-22T10:15:00.000Z']).toMatchObject({
      requestCount: 2,
      errorCount: 1,
      totalDurationMs: 13,
      maxDurationMs: 9,
    });
    expect(rows['u1 GET /api/user 2026-11-22T10:15:00.000Z']).toMatchObject({ requestCount: 1, errorCount: 1 });
  });

  // What it costs per request is the ping benchmark's to report (npm run bench -- game).
  it('keeps one row per user and minute however many requests it counts (300,000 pings of 100 users)', () => {
    const rollup = createRequestRollup();
    const users = Array.from({ length: 100 }, (_, i) => `u${i}`);
    for (let i = 0; i < 300_000; i++)
      rollup.record(users[i % 100]!, 'POST /api/game/ping', T0 + (i % 60_000), 0.4, false);
    expect(rollup.size).toBe(100);
    const rows = rollup.drain();
    expect(rows.map((row) => row.requestCount)).toEqual(Array.from({ length: 100 }, () => 3_000));
    expect(new Set(rows.map((row) => row.userId)).size).toBe(100);
  });
});

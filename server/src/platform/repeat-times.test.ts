import { describe, expect, it } from 'vitest';
import { cronProblem, decodeRepeat, encodeRepeat, nextDue, nextDues } from './repeat-times.ts';

const iso = (ms: number[]) => ms.map((time) => new Date(time).toISOString());
const at = (text: string) => Date.parse(text);

describe('repeat times', () => {
  it('runs a cron expression in its time zone', () => {
    const times = nextDues({ cron: '0 9 * * 1-5', timeZone: 'Europe/Berlin' }, at('2026-01-09T12:00:00Z'), 3);
    // Friday noon: Monday, Tuesday, Wednesday at 09:00 Berlin (UTC+1 in winter).
    expect(iso(times)).toEqual(['2026-01-12T08:00:00.000Z', '2026-01-13T08:00:00.000Z', '2026-01-14T08:00:00.000Z']);
  });

  it('runs 02:30 New York once on the day the clocks skip it, at 03:00 (spring forward)', () => {
    const times = nextDues({ cron: '30 2 * * *', timeZone: 'America/New_York' }, at('2026-03-06T12:00:00Z'), 4);
    expect(iso(times)).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-08T07:00:00.000Z', // 02:30 does not exist: 03:00 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('runs 02:30 New York at its one 02:30 the day the clocks fall back, and 01:30 once though it happens twice', () => {
    expect(iso(nextDues({ cron: '30 2 * * *', timeZone: 'America/New_York' }, at('2026-10-31T12:00:00Z'), 3))).toEqual([
      '2026-11-01T07:30:00.000Z',
      '2026-11-02T07:30:00.000Z',
      '2026-11-03T07:30:00.000Z',
    ]);
    expect(iso(nextDues({ cron: '30 1 * * *', timeZone: 'America/New_York' }, at('2026-10-31T12:00:00Z'), 2))).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('counts intervals from the epoch, strictly after the given time', () => {
    const minute = { everyMs: 60_000 };
    expect(nextDue(minute, at('2026-01-01T00:00:00Z'))).toBe(at('2026-01-01T00:01:00Z'));
    expect(nextDue(minute, at('2026-01-01T00:00:59.999Z'))).toBe(at('2026-01-01T00:01:00Z'));
    expect(iso(nextDues({ everyMs: 3_600_000 }, at('2026-01-01T10:20:00Z'), 2))).toEqual([
      '2026-01-01T11:00:00.000Z',
      '2026-01-01T12:00:00.000Z',
    ]);
  });

  it('tells a bad expression, one that never comes round and an unknown time zone apart', () => {
    expect(cronProblem('*/5 * * * *', 'UTC')).toBeNull();
    expect(cronProblem('every minute', 'UTC')).toBe('invalid');
    expect(cronProblem('* * * * * *', 'UTC')).toBe('invalid');
    expect(cronProblem('61 * * * *', 'UTC')).toBe('invalid');
    expect(cronProblem('0 0 30 2 *', 'UTC')).toBe('never');
    expect(cronProblem('0 0 * * *', 'Mars/Olympus_Mons')).toBe('time-zone');
  });

  it('travels through BullMQ as one string', () => {
    const repeat = { cron: '30 2 * * *', timeZone: 'America/New_York' };
    expect(decodeRepeat(encodeRepeat(repeat))).toEqual(repeat);
  });
});

import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.ts';

const HOUR_MS = 60 * 60 * 1000;

// Each wait below is an hour long: only the abort can end it before the test's own timeout.
describe('the system clock', () => {
  it('a sleep whose stop already came ends at once', async () => {
    await expect(systemClock.sleep(HOUR_MS, AbortSignal.abort())).resolves.toBeUndefined();
  });

  it('a stop during a sleep ends it', async () => {
    const stop = new AbortController();
    const sleeping = systemClock.sleep(HOUR_MS, stop.signal);
    stop.abort();
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('without a stop a sleep ends after its time', async () => {
    const started = systemClock.now();
    await systemClock.sleep(5);
    expect(systemClock.now()).toBeGreaterThanOrEqual(started + 4);
  });
});

import { describe, expect, it } from 'vitest';
import { OUTCOME_KEYS, outcomeShares, type RunOutcomes } from './analytics.ts';

const tenths = (shares: Record<keyof RunOutcomes, number>) =>
  OUTCOME_KEYS.reduce((sum, key) => sum + Math.round(shares[key] * 10), 0);

describe('outcomeShares', () => {
  it('is null when there were no runs', () => {
    expect(outcomeShares({ succeeded: 0, failed: 0, pending: 0, notConnected: 0 })).toBeNull();
  });

  it('counts every outcome in the whole: two runs of three succeeded is 66.7%, not 100%', () => {
    expect(outcomeShares({ succeeded: 2, failed: 0, pending: 0, notConnected: 1 })).toEqual({
      succeeded: 66.7,
      failed: 0,
      pending: 0,
      notConnected: 33.3,
    });
  });

  it('adds up to exactly 100%, each share within a tenth of its exact value, whatever the counts', () => {
    // A fixed walk over many mixes (no randomness: the same cases every run).
    for (let a = 0; a <= 12; a++)
      for (let b = 0; b <= 7; b++)
        for (let c = 0; c <= 3; c++)
          for (const d of [0, 1, 5, 997]) {
            const outcomes = { succeeded: a, failed: b, pending: c, notConnected: d };
            const total = a + b + c + d;
            const shares = outcomeShares(outcomes);
            if (total === 0) continue;
            expect(tenths(shares!), JSON.stringify(outcomes)).toBe(1000);
            for (const key of OUTCOME_KEYS) {
              expect(Math.abs(shares![key] - (outcomes[key] * 100) / total)).toBeLessThan(0.1);
              // An outcome with no runs never gets a share of the leftover tenths.
              if (outcomes[key] === 0) expect(shares![key]).toBe(0);
            }
          }
  });

  it('gives a tie the outcome listed first, so the same counts always read the same', () => {
    expect(outcomeShares({ succeeded: 1, failed: 1, pending: 0, notConnected: 1 })).toEqual({
      succeeded: 33.4,
      failed: 33.3,
      pending: 0,
      notConnected: 33.3,
    });
  });
});

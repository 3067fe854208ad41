import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, maskApiKey, shortId, timeAgo } from './format.ts';

describe('maskApiKey', () => {
  it('shows the first 8 and last 4 characters', () => {
    expect(maskApiKey('mr_8wEbh0sj58IVWRtDgjJoLW1aVCDv')).toBe('mr_8wEbh…aVCDv'.replace('aVCDv', 'VCDv'));
  });
  it('shows a key of 12 characters or fewer in full', () => {
    expect(maskApiKey('abcdefghijkl')).toBe('abcdefghijkl');
    expect(maskApiKey('abcdefghijklm')).toBe('abcdefgh…jklm');
  });
});

describe('shortId', () => {
  it('shows a short id whole and cuts a long one to 8 characters and an ellipsis', () => {
    expect(shortId('job-demo-1')).toBe('job-demo…');
    expect(shortId('studio')).toBe('studio');
    expect(shortId('123456789')).toBe('123456789');
    expect(shortId('3f2b1c4d-0000-4000-8000-000000000000')).toBe('3f2b1c4d…');
  });
});

describe('timeAgo', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('speaks in the largest fitting unit', () => {
    expect(timeAgo('2026-11-21T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-11-21T11:57:00Z', now)).toBe('3 minutes ago');
    expect(timeAgo('2026-11-20T12:00:00Z', now)).toBe('yesterday');
  });
});

describe('formatDate', () => {
  it("says 'Unknown' without a date", () => {
    expect(formatDate(null)).toBe('Unknown');
    expect(formatDate('nonsense')).toBe('Unknown');
  });
});

describe('formatDateTime', () => {
  it('gives the date and the time of day to the second', () => {
    const iso = '2026-03-01T12:00:05.000Z';
    const local = new Date(iso);
    const text = formatDateTime(iso);
    expect(text).toContain(String(local.getFullYear()));
    expect(text).toContain(`:${String(local.getSeconds()).padStart(2, '0')}`);
    expect(text).toBe(local.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' }));
  });
  it("says 'Unknown' without a date", () => {
    expect(formatDateTime(undefined)).toBe('Unknown');
    expect(formatDateTime('nonsense')).toBe('Unknown');
  });
});

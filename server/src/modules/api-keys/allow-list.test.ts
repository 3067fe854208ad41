import { describe, expect, it } from 'vitest';
import { allowListOf } from './allow-list.ts';

describe('a key’s IP allow list', () => {
  const list = allowListOf(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32']);

  it.each([
    ['203.0.113.255', true],
    ['203.0.114.0', false],
    ['198.51.100.7', true],
    ['198.51.100.8', false],
    ['::ffff:203.0.113.9', true],
    ['2001:db8:1::5', true],
    ['2001:db9::1', false],
    ['not an address', false],
  ])('%s: %s', (ip, allowed) => {
    expect(list.allows(ip)).toBe(allowed);
    // The remembered answer is the same.
    expect(list.allows(ip)).toBe(allowed);
  });
});

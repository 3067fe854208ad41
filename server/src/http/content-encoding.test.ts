import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './content-encoding.ts';

describe('choosing how to send a web app file', () => {
  it.each([
    // What browsers send: equal weights, so the smallest copy.
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['identity;q=1, br;q=0.5', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['BR', 'br'],
    [' gzip ; q=0.8 , br ; q=0.9 ', 'br'],
  ])('%j gets %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it.each([undefined, '', '%%%;;q=x,,', 'br;q=abc', 'gzip;q=2', 'identity;q=0, *;q=0', ';;;,,,'])(
    'answers the plain file for %j',
    (header) => {
      expect(chooseEncoding(header)).toBe('identity');
    },
  );
});

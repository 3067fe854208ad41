import { describe, expect, it } from 'vitest';
import { isWellFormedApiKey, newApiKey } from './api-keys.ts';

describe('API key format', () => {
  it('has the mr_ prefix, 22 random base62 characters and a 6-character checksum', () => {
    const key = newApiKey();
    expect(key).toMatch(/^mr_[0-9A-Za-z]{28}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeats and spreads over the whole alphabet', () => {
    const keys = Array.from({ length: 2000 }, newApiKey);
    expect(new Set(keys).size).toBe(keys.length);
    const seen = new Set(keys.flatMap((key) => [...key.slice(3, 25)]));
    expect(seen.size).toBe(62);
  });

  it('refuses every single-character typo by its checksum', () => {
    const key = newApiKey();
    for (let i = 3; i < key.length; i++) {
      const replacement = key[i] === 'x' ? 'y' : 'x';
      expect(isWellFormedApiKey(key.slice(0, i) + replacement + key.slice(i + 1)), `position ${i}`).toBe(false);
    }
  });

  it('refuses wrong shapes', () => {
    const key = newApiKey();
    for (const bad of ['', 'mr_', key.slice(0, -1), key + 'a', key.replace('mr_', 'mx_'), key.replace(/.$/, '!')]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });
});

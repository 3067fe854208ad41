import { describe, expect, it } from 'vitest';
import { formatViews } from './format-views.ts';

describe('formatViews', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1_000, '1.0K'],
    [1_234, '1.2K'],
    [15_300, '15.3K'],
    [999_949, '999.9K'],
    [999_950, '1.0M'],
    [1_000_000, '1.0M'],
    [2_500_000, '2.5M'],
    [123_456_789, '123.5M'],
    [-5, '0'],
  ])('%d views read %s', (views, shown) => {
    expect(formatViews(views)).toBe(shown);
  });
});

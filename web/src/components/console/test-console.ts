import type { ConsoleLine, ConsolePage } from '@moonrelay/contract/console';

/** Fixtures for the console's tests. */

export const SERVER_A = 'a4f0c3c2-1111-2222-3333-444455556666';
export const SERVER_B = 'b7e1d9f0-7777-8888-9999-000011112222';

/** A kept line as the API and the socket give it; `id` orders lines, tests name it. */
export function consoleLine(id: number | string, overrides: Partial<ConsoleLine> = {}): ConsoleLine {
  return {
    id: String(id),
    serverId: SERVER_A,
    time: '2026-03-01T12:00:00.000Z',
    level: 'output',
    text: `line ${id}`,
    stack: null,
    script: null,
    own: false,
    executionId: null,
    ...overrides,
  };
}

/** Lines `from`..`to` (inclusive), oldest first. */
export const consoleLines = (from: number, to: number, overrides: Partial<ConsoleLine> = {}) =>
  Array.from({ length: to - from + 1 }, (_, index) => consoleLine(from + index, overrides));

/** A page as GET .../console answers it: newest first. */
export const pageOf = (oldestFirst: readonly ConsoleLine[], nextCursor: string | null = null): ConsolePage => ({
  lines: [...oldestFirst].reverse(),
  nextCursor,
});

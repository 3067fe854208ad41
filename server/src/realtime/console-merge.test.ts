import { describe, expect, it } from 'vitest';
import type { ConsoleLine } from '@moonrelay/contract/console';
import { emptyConsole, mergeConsole, toConsoleEvent } from './console-merge.ts';

const line = (id: number, serverId = 's1'): ConsoleLine => ({
  id: String(id),
  serverId,
  time: new Date(1_795_000_000_000 + id).toISOString(),
  level: 'output',
  text: `line ${id}`,
  stack: null,
  script: null,
  own: false,
  executionId: null,
});

describe('merging console lines for one live event', () => {
  it('puts lines from several instances back in the order they were received (by id)', () => {
    const merged = emptyConsole();
    mergeConsole(merged, [line(5), line(7)], [], 10);
    mergeConsole(merged, [line(4), line(6)], [], 10);
    expect(toConsoleEvent('u1', merged, 10).lines.map((l) => l.id)).toEqual(['4', '5', '6', '7']);
  });

  it('keeps the newest lines and counts the rest per server as left out live; adds up drops of a server and reason', () => {
    const merged = emptyConsole();
    const many = Array.from({ length: 25 }, (_, i) => line(i + 1, i % 2 ? 'odd' : 'even'));
    mergeConsole(merged, many, [{ serverId: 'odd', count: 3, time: 't1' }], 5);
    mergeConsole(merged, [], [{ serverId: 'odd', count: 4, time: 't2', reason: 'game' }], 5);
    const event = toConsoleEvent('u1', merged, 5);
    expect(event.lines.map((l) => l.id)).toEqual(['21', '22', '23', '24', '25']);
    const drops = Object.fromEntries(event.drops.map((d) => [`${d.serverId} ${d.reason}`, d.count]));
    // 1..20 left out: ten of each server; the game's own drops of 'odd' added up (the first one's time kept).
    expect(drops).toEqual({ 'odd game': 7, 'even live': 10, 'odd live': 10 });
    expect(event.drops.find((d) => d.reason === 'game')!.time).toBe('t1');
    expect(event.userId).toBe('u1');
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryPresence } from './presence.ts';

const WINDOW = 10_000;

describe('memory presence', () => {
  it('reports a connect on the first ping and after a gap of the window, not on steady pings', async () => {
    const presence = createMemoryPresence(WINDOW);
    expect((await presence.touch('u', 's', null, 0))!.connected).toBe(true);
    expect((await presence.touch('u', 's', null, 2_000))!.connected).toBe(false);
    expect((await presence.touch('u', 's', null, 11_999))!.connected).toBe(false);
    const back = (await presence.touch('u', 's', null, 22_000))!;
    expect(back.connected).toBe(true);
    expect(back.presence.connectedAtMs).toBe(22_000);
  });

  it('keeps the last player data when a ping carries none', async () => {
    const presence = createMemoryPresence(WINDOW);
    await presence.touch('u', 's', { playerName: 'A' }, 0);
    expect((await presence.touch('u', 's', null, 1))!.presence.gameData).toEqual({ playerName: 'A' });
  });

  it('announces each disconnect once, lists newest first, and forgets old servers', async () => {
    const presence = createMemoryPresence(WINDOW);
    await presence.touch('u', 'old', null, 0);
    await presence.touch('u', 'new', null, 5_000);
    await presence.touch('v', 'x', null, 5_000);
    expect((await presence.list('u')).map((p) => p.serverId)).toEqual(['new', 'old']);
    expect((await presence.takeDisconnected(9_999, WINDOW, 60_000)).map((p) => p.serverId)).toEqual([]);
    expect((await presence.takeDisconnected(10_000, WINDOW, 60_000)).map((p) => p.serverId)).toEqual(['old']);
    expect(await presence.takeDisconnected(12_000, WINDOW, 60_000)).toEqual([]);
    expect((await presence.takeDisconnected(15_000, WINDOW, 60_000)).map((p) => p.serverId).sort()).toEqual([
      'new',
      'x',
    ]);
    expect(await presence.listAll()).toHaveLength(3);
    await presence.takeDisconnected(60_000, WINDOW, 60_000);
    expect((await presence.list('u')).map((p) => p.serverId)).toEqual(['new']);
    await presence.takeDisconnected(65_000, WINDOW, 60_000);
    expect(await presence.listAll()).toEqual([]);
  });
});

describe('memory presence at its limit of servers per user', () => {
  it('refuses a new server past the limit, keeps taking known ones, and takes new ones once some are forgotten', async () => {
    const presence = createMemoryPresence(WINDOW, 2);
    expect(await presence.touch('u', 'a', null, 0)).toBeDefined();
    expect(await presence.touch('u', 'b', null, 0)).toBeDefined();
    expect(await presence.touch('u', 'c', null, 1)).toBeUndefined();
    expect(await presence.touch('v', 'c', null, 1)).toBeDefined();
    expect(await presence.touch('u', 'a', null, 2)).toBeDefined();
    expect((await presence.list('u')).map((p) => p.serverId).sort()).toEqual(['a', 'b']);
    await presence.touch('u', 'a', null, 30_000);
    await presence.takeDisconnected(65_000, WINDOW, 60_000);
    expect(await presence.touch('u', 'c', null, 65_000)).toBeDefined();
  });
});

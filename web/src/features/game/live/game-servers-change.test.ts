import { describe, expect, it } from 'vitest';
import { DISCONNECTED, agoIso, testServer } from '../../../test/test-game.ts';
import { applyServersChange } from './game-servers-change.ts';

describe('applyServersChange', () => {
  const a = testServer({ serverId: 'job-a', lastPing: agoIso(3000) });
  const b = testServer({ serverId: 'job-b', lastPing: agoIso(1000), gameData: { playerName: 'Roblox' } });
  const status = { connected: true, lastPing: b.lastPing, gameData: b.gameData, servers: [b, a] };

  it('adds and updates servers, newest ping first, the newest one giving the status its data', () => {
    const c = testServer({ serverId: 'job-c', lastPing: agoIso(10), gameData: { playerName: 'Guest' } });
    const next = applyServersChange(status, { userId: 'u1', servers: [c], gone: [] });
    expect(next.servers.map((server) => server.serverId)).toEqual(['job-c', 'job-b', 'job-a']);
    expect(next).toMatchObject({ connected: true, lastPing: c.lastPing, gameData: { playerName: 'Guest' } });
  });

  it('ignores what is older than the status shows, whichever order changes arrive in', () => {
    const olderA = { ...a, lastPing: agoIso(8000), gameData: null };
    const next = applyServersChange(status, {
      userId: 'u1',
      servers: [olderA],
      gone: [{ serverId: 'job-b', lastPing: agoIso(5000) }],
    });
    expect(next).toEqual(status);
  });

  it('removes servers that stopped; with none left, not connected but the last known data stays', () => {
    const next = applyServersChange(status, {
      userId: 'u1',
      servers: [],
      gone: [
        { serverId: 'job-a', lastPing: a.lastPing },
        { serverId: 'job-b', lastPing: b.lastPing },
      ],
    });
    expect(next).toEqual({ connected: false, lastPing: b.lastPing, gameData: b.gameData, servers: [] });
    expect(applyServersChange(DISCONNECTED, { userId: 'u1', servers: [], gone: [] })).toEqual(DISCONNECTED);
  });
});

import { describe, expect, it } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import { gameLinkOf, isFresh } from './game-link.ts';
import { DISCONNECTED, PLAYER, connectedStatus, testServer } from '../test/test-game.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

describe('isFresh', () => {
  it('counts a ping while it is younger than 10 s', () => {
    expect(isFresh(at(0), NOW)).toBe(true);
    expect(isFresh(at(GAME_CONNECTED_WINDOW_MS - 1), NOW)).toBe(true);
    expect(isFresh(at(GAME_CONNECTED_WINDOW_MS), NOW)).toBe(false);
    expect(isFresh(null, NOW)).toBe(false);
  });
});

describe('gameLinkOf', () => {
  it('reads nothing as disconnected, with nothing to re-read', () => {
    expect(gameLinkOf(undefined, null, NOW)).toMatchObject({ connected: false, staleAt: null, liveServers: [] });
    expect(gameLinkOf(DISCONNECTED, null, NOW)).toMatchObject({ connected: false, staleAt: null });
  });

  it('reads a status the server called connected as disconnected once its last ping is 10 s old', () => {
    const server = testServer({ lastPing: at(GAME_CONNECTED_WINDOW_MS + 500) });
    const link = gameLinkOf(connectedStatus({ lastPing: server.lastPing, servers: [server] }), null, NOW);
    expect(link.connected).toBe(false);
    expect(link.liveServers).toEqual([]);
    expect(link.staleAt).toBeNull();
  });

  it('knows when a connected game goes stale', () => {
    const server = testServer({ lastPing: at(4000) });
    const link = gameLinkOf(connectedStatus({ lastPing: server.lastPing, servers: [server] }), null, NOW);
    expect(link).toMatchObject({ connected: true, gameData: PLAYER, serverId: undefined });
    expect(link.staleAt).toBe(NOW - 4000 + GAME_CONNECTED_WINDOW_MS);
  });

  it('with several live servers shows and targets the chosen one, else the first to connect', () => {
    const first = testServer({ serverId: 'job-1', lastPing: at(1500), connectedAt: at(90_000) });
    const second = testServer({
      serverId: 'job-2',
      lastPing: at(500),
      connectedAt: at(60_000),
      gameData: { playerName: 'Roblox' },
    });
    const stale = testServer({ serverId: 'job-3', lastPing: at(20_000), connectedAt: at(100_000) });
    const status = connectedStatus({ lastPing: second.lastPing, servers: [second, first, stale] });

    const unchosen = gameLinkOf(status, null, NOW);
    expect(unchosen.serverId).toBe('job-1');
    // In connect order, so the picker's entries do not move as servers ping.
    expect(unchosen.liveServers.map((server) => server.serverId)).toEqual(['job-1', 'job-2']);

    const chosen = gameLinkOf(status, 'job-2', NOW);
    expect(chosen).toMatchObject({ serverId: 'job-2', gameData: { playerName: 'Roblox' }, lastPing: second.lastPing });
    // A chosen server that stopped falls back to the first live one.
    expect(gameLinkOf(status, 'job-3', NOW).serverId).toBe('job-1');
  });
});

import { describe, expect, it } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import { gameLinkOf, isFresh } from './game-link.ts';
import { DISCONNECTED, PLAYER, connectedStatus, testServer } from './test-game.ts';

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

  it('with several live servers shows and targets the chosen one, else the most recent', () => {
    const first = testServer({ serverId: 'job-1', lastPing: at(500) });
    const second = testServer({ serverId: 'job-2', lastPing: at(1500), gameData: { playerName: 'Roblox' } });
    const stale = testServer({ serverId: 'job-3', lastPing: at(20_000) });
    const status = connectedStatus({ lastPing: first.lastPing, servers: [first, second, stale] });

    const newest = gameLinkOf(status, null, NOW);
    expect(newest.serverId).toBe('job-1');
    expect(newest.liveServers.map((server) => server.serverId)).toEqual(['job-1', 'job-2']);

    const chosen = gameLinkOf(status, 'job-2', NOW);
    expect(chosen).toMatchObject({ serverId: 'job-2', gameData: { playerName: 'Roblox' }, lastPing: second.lastPing });
    // A chosen server that stopped falls back to the newest.
    expect(gameLinkOf(status, 'job-3', NOW).serverId).toBe('job-1');
  });
});

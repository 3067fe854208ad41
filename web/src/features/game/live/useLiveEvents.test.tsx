import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { gameStatusQuery, useGameStatus } from '../../../lib/game-status.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { closeLiveSocket } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch } from '../../../test/render.tsx';
import { DISCONNECTED, connectedStatus, testServer } from '../../../test/test-game.ts';
import { lateResultOf, useLiveStore } from './live-store.ts';
import { useLiveEvents } from './useLiveEvents.ts';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const COMMAND = {
  id: 'c1',
  userId: 'u1',
  serverId: 'job-1',
  type: 'execute' as const,
  status: 'delivered' as const,
  source: 'execution' as const,
  executionId: 'e1',
  attempts: 1,
  output: null,
  error: null,
  durationMs: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  deliveredAt: '2026-03-01T12:00:00.100Z',
  completedAt: null,
};

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  signInAs();
});
afterEach(() => {
  closeLiveSocket();
  useLiveStore.getState().clear();
  vi.unstubAllGlobals();
});

describe('useLiveEvents', () => {
  it("applies a 'game:servers' change of the signed-in user to the status query", () => {
    renderHook(() => useLiveEvents());
    queryClient.setQueryData(gameStatusQuery().queryKey, DISCONNECTED);
    const server = testServer();
    socket.serverSends('game:servers', { changes: [{ userId: 'u1', servers: [server], gone: [] }] });
    const connected = { connected: true, lastPing: server.lastPing, gameData: server.gameData, servers: [server] };
    expect(queryClient.getQueryData(gameStatusQuery().queryKey)).toEqual(connected);

    socket.serverSends('game:servers', {
      changes: [{ userId: 'u1', servers: [], gone: [{ serverId: server.serverId, lastPing: server.lastPing }] }],
    });
    // Nothing live any more; the last ping and player data stay as the last known ones.
    expect(queryClient.getQueryData(gameStatusQuery().queryKey)).toEqual({
      ...connected,
      connected: false,
      servers: [],
    });
  });

  it("ignores another user's events (admins receive everyone's)", () => {
    renderHook(() => useLiveEvents());
    queryClient.setQueryData(gameStatusQuery().queryKey, DISCONNECTED);
    socket.serverSends('game:servers', { changes: [{ userId: 'someone-else', servers: [testServer()], gone: [] }] });
    socket.serverSends('command:update', { command: { ...COMMAND, userId: 'someone-else' } });
    expect(queryClient.getQueryData(gameStatusQuery().queryKey)).toEqual(DISCONNECTED);
    expect(useLiveStore.getState().commands).toEqual({});
  });

  it('keeps command updates, and reads a finished execute command as its run result', () => {
    renderHook(() => useLiveEvents());
    socket.serverSends('command:update', { command: COMMAND });
    expect(useLiveStore.getState().commands.c1?.status).toBe('delivered');
    expect(lateResultOf(useLiveStore.getState(), 'e1')).toBeUndefined();

    const finished = { ...COMMAND, status: 'succeeded' as const, output: 'done\n', durationMs: 4 };
    socket.serverSends('command:update', { command: finished });
    expect(lateResultOf(useLiveStore.getState(), 'e1')).toMatchObject({ success: true, output: 'done\n' });
  });

  it("keeps an 'execution:result' and refreshes the script list (its execution counts)", () => {
    renderHook(() => useLiveEvents());
    const refresh = vi.spyOn(queryClient, 'invalidateQueries');
    const execution = {
      success: true,
      output: 'hi',
      error: null,
      target: 'game' as const,
      executionId: 'e9',
      durationMs: 2,
    };
    socket.serverSends('execution:result', { userId: 'u1', execution });
    expect(lateResultOf(useLiveStore.getState(), 'e9')).toEqual(execution);
    expect(refresh).toHaveBeenCalledWith({ queryKey: ['/api/scripts'] });
    refresh.mockRestore();
  });

  it('fetches the status again when the socket (re)connects, as events may have been missed', async () => {
    const fetch = vi.fn(jsonFetch({ 'GET /api/game/status': () => ({ body: connectedStatus() }) }));
    vi.stubGlobal('fetch', fetch);
    const statusFetches = () => fetch.mock.calls.filter(([url]) => url === '/api/game/status').length;
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(
      () => {
        useLiveEvents();
        return useGameStatus();
      },
      { wrapper },
    );
    await waitFor(() => expect(statusFetches()).toBe(1));
    socket.serverSends('connect');
    await waitFor(() => expect(statusFetches()).toBe(2));
  });

  it('a change that arrives while the status is being fetched is not lost when the older answer lands', async () => {
    const server = testServer();
    // The first answer was made before the server connected and arrives after its change.
    let answerFirst: (() => void) | undefined;
    let fetches = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        fetches += 1;
        if (fetches === 1) await new Promise<void>((resolve) => (answerFirst = resolve));
        const body = fetches === 1 ? DISCONNECTED : { ...DISCONNECTED, connected: true, servers: [server] };
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      }),
    );
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => {
        useLiveEvents();
        return useGameStatus();
      },
      { wrapper },
    );
    await waitFor(() => expect(answerFirst).toBeDefined());
    socket.serverSends('game:servers', { changes: [{ userId: 'u1', servers: [server], gone: [] }] });
    answerFirst!();
    await waitFor(() => expect(result.current.data?.servers.map((s) => s.serverId)).toEqual([server.serverId]));
  });

  it('stops listening when unmounted, and opens one socket however often it mounts', () => {
    const { unmount } = renderHook(() => useLiveEvents());
    renderHook(() => useLiveEvents()).unmount();
    expect(io).toHaveBeenCalledTimes(1);
    expect(socket.listenerCount('game:servers')).toBe(1);
    unmount();
    expect(socket.listenerCount('game:servers')).toBe(0);
  });
});

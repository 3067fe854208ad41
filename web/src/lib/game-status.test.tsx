import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GAME_STATUS_POLL_MS } from '@moonrelay/contract/constants';
import { useGameStatus } from './game-status.ts';
import { queryClient } from './query-client.ts';
import { useLiveSocketState } from './socket.ts';
import { signInAs } from '../test/fixtures.ts';
import { jsonFetch } from '../test/render.tsx';
import { connectedStatus } from '../test/test-game.ts';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);

function watchStatus() {
  const fetch = vi.fn(jsonFetch({ 'GET /api/game/status': () => ({ body: connectedStatus() }) }));
  vi.stubGlobal('fetch', fetch);
  renderHook(() => useGameStatus(), { wrapper });
  return () => fetch.mock.calls.filter(([url]) => url === '/api/game/status').length;
}

beforeEach(() => {
  signInAs();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe('useGameStatus', () => {
  it('polls every 2 s while the live socket is down', async () => {
    const statusFetches = watchStatus();
    await waitFor(() => expect(statusFetches()).toBe(1));
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    await waitFor(() => expect(statusFetches()).toBe(2));
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    await waitFor(() => expect(statusFetches()).toBe(3));
  });

  it('does not poll while the live socket is up, and polls again when it drops', async () => {
    useLiveSocketState.setState({ connected: true });
    const statusFetches = watchStatus();
    await waitFor(() => expect(statusFetches()).toBe(1));
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS * 3);
    expect(statusFetches()).toBe(1);

    useLiveSocketState.setState({ connected: false });
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    await waitFor(() => expect(statusFetches()).toBe(2));
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { ConsoleErrorCounts } from '@moonrelay/contract/console';
import { consoleLine, SERVER_A } from '../../../components/console/test-console.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { closeLiveSocket, useLiveSocketState } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { CONSOLE_ERRORS_POLL_MS, useServerErrorCount } from '../api/console.ts';
import { useLiveEvents } from '../live/useLiveEvents.ts';
import { GamePanel } from '../panel/GamePanel.tsx';
import { connectedStatus } from '../../../test/test-game.ts';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);

function Harness() {
  useLiveEvents();
  return <GamePanel />;
}

function renderCard(counts: () => ConsoleErrorCounts) {
  const fetch = vi.fn(
    jsonFetch({
      'GET /api/game/status': () => ({ body: connectedStatus() }),
      'GET /api/game/console/errors': () => ({ body: counts() }),
    }),
  );
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<Harness />);
  return () => fetch.mock.calls.filter(([url]) => url === '/api/game/console/errors').length;
}

const card = () => screen.getByRole('region', { name: 'Game Connection' });
const errorCount = () => within(card()).findByTestId('server-errors');

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.useRealTimers();
  closeLiveSocket();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe("the game server card's error count", () => {
  it("shows the server's errors of the last hour, linking to them in the console, and counts new ones live", async () => {
    renderCard(() => ({ servers: [{ serverId: SERVER_A, errorsLastHour: 2 }] }));
    const count = await errorCount();
    expect(count).toHaveTextContent('2 errors in the last hour');
    expect(count).toHaveAttribute('href', `/console?server=${SERVER_A}&level=error`);

    act(() =>
      socket.serverSends('console:lines', {
        userId: 'u1',
        lines: [consoleLine(1, { level: 'error' }), consoleLine(2, { level: 'warning' })],
        drops: [],
      }),
    );
    expect(await errorCount()).toHaveTextContent('3 errors in the last hour');
    act(() =>
      socket.serverSends('console:lines', {
        userId: 'someone-else',
        lines: [consoleLine(3, { level: 'error' })],
        drops: [],
      }),
    );
    expect(await errorCount()).toHaveTextContent('3 errors in the last hour');
  });

  it('says when there were none', async () => {
    renderCard(() => ({ servers: [] }));
    expect(await errorCount()).toHaveTextContent('No errors in the last hour');
  });

  it('is fetched again every 30 s, so errors older than an hour leave it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let errors = 1;
    const fetches = renderCard(() => ({ servers: [{ serverId: SERVER_A, errorsLastHour: errors }] }));
    const { result } = renderHook(() => useServerErrorCount(SERVER_A), { wrapper });
    await waitFor(() => expect(result.current).toBe(1));
    expect(fetches()).toBe(1);
    errors = 0;
    await act(() => vi.advanceTimersByTimeAsync(CONSOLE_ERRORS_POLL_MS));
    await waitFor(() => expect(result.current).toBe(0));
    expect(fetches()).toBe(2);
  });
});

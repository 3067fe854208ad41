import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { ConsoleLine } from '@moonrelay/contract/console';
import { consoleLine, pageOf } from '../../../../components/console/test-console.ts';
import { closeLiveSocket, useLiveSocketState } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { ADMIN_CONSOLE_POLL_MS } from '../../api/user-console.ts';
import { useAdminLiveStore } from '../../live/admin-live-store.ts';
import { GRACE, connection, connectionList, renderAdmin } from '../../test-admin.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.useRealTimers();
  closeLiveSocket();
  useAdminLiveStore.getState().clear();
  vi.unstubAllGlobals();
});

const GRACE_GAME = connection();
const CONSOLE_PATH = `/api/admin/users/${GRACE.id}/console`;

function renderConsole(lines: () => ConsoleLine[]) {
  const result = renderAdmin(
    {
      'GET /api/admin/connections': () => ({ body: connectionList([GRACE_GAME]) }),
      [`GET ${CONSOLE_PATH}`]: () => ({ body: pageOf(lines()) }),
    },
    'connections',
  );
  const consoleUrls = () =>
    result.fetch.mock.calls
      .map(([url]) => new URL(String(url), 'http://localhost'))
      .filter((url) => url.pathname === CONSOLE_PATH);
  return { ...result, consoleUrls };
}

const texts = (dialog: HTMLElement) =>
  within(dialog)
    .queryAllByTestId('console-line-text')
    .map((element) => element.textContent);

describe("an admin's view of a user's console", () => {
  it("opens the user's console on that game server from the connection card, and polls it while open", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let lines = [consoleLine(1, { serverId: GRACE_GAME.serverId, text: '<img src=x onerror=alert(1)>' })];
    const { consoleUrls } = renderConsole(() => lines);
    await userEvent.click(await screen.findByRole('button', { name: 'Console of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Console of Grace Hopper' });
    await waitFor(() => expect(texts(dialog)).toEqual(['<img src=x onerror=alert(1)>']));
    expect(dialog.querySelector('img')).toBeNull();
    expect(within(dialog).getByRole('combobox', { name: 'Server' })).toHaveValue(GRACE_GAME.serverId);
    expect(consoleUrls()[0]?.searchParams.get('serverId')).toBe(GRACE_GAME.serverId);

    // No live events reach an admin for another user's console: the newest lines are polled.
    lines = [...lines, consoleLine(2, { serverId: GRACE_GAME.serverId, level: 'error', text: 'it broke' })];
    await act(() => vi.advanceTimersByTimeAsync(ADMIN_CONSOLE_POLL_MS));
    await waitFor(() => expect(texts(dialog)).toEqual(['<img src=x onerror=alert(1)>', 'it broke']));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const polled = consoleUrls().length;
    await act(() => vi.advanceTimersByTimeAsync(ADMIN_CONSOLE_POLL_MS * 3));
    expect(consoleUrls()).toHaveLength(polled);
  });

  it("shows all the user's servers merged when asked, and the empty state", async () => {
    const { consoleUrls } = renderConsole(() => []);
    await userEvent.click(await screen.findByRole('button', { name: 'Console of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Console of Grace Hopper' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Server' }), 'All servers');
    await waitFor(() => expect(consoleUrls().at(-1)?.searchParams.has('serverId')).toBe(false));
    expect(
      await within(dialog).findByText(
        "No console output yet. Lines your game's scripts print appear here as they happen.",
      ),
    ).toBeInTheDocument();
  });
});

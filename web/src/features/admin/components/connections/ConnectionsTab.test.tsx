import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { AdminConnection } from '@moonrelay/contract/admin';
import { closeLiveSocket, useLiveSocketState } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { useAdminLiveStore } from '../../live/admin-live-store.ts';
import { ALAN, GRACE, commandView, connection, connectionList, renderAdmin } from '../../test-admin.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  closeLiveSocket();
  useAdminLiveStore.getState().clear();
  vi.unstubAllGlobals();
});

const GRACE_GAME = connection();
const ALAN_GAME = connection({
  userId: ALAN.id,
  userName: ALAN.name,
  userEmail: ALAN.email,
  serverId: 'studio',
  isConnected: false,
  lastPing: '2026-03-01T09:15:00.000Z',
  gameData: null,
});

const cardOf = (name: string) => screen.getByRole('article', { name: `Connection of ${name}` });
const valueOf = (card: HTMLElement, label: string) =>
  within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

function renderConnections(items: AdminConnection[]) {
  const sent: unknown[] = [];
  const result = renderAdmin(
    {
      'GET /api/admin/connections': () => ({ body: connectionList(items) }),
      [`POST /api/admin/users/${GRACE.id}/command`]: (body) => {
        sent.push(body);
        const id = `cmd-${sent.length}`;
        return { body: { queued: true, message: 'Command queued', id, ids: [id] } };
      },
    },
    'connections',
  );
  return { ...result, sent };
}

describe('the Connections tab', () => {
  it("names a team's game server by the team, saying it is one, where a person's email would be", async () => {
    const team = connection({ userId: 't1', userName: 'Obby Studios', userEmail: null, isTeam: true });
    renderConnections([team]);
    const card = await screen.findByRole('article', { name: 'Connection of Obby Studios' });
    expect(within(card).getByText('Team')).toBeInTheDocument();
    expect(within(card).queryByText(/@/)).not.toBeInTheDocument();
  });

  it("shows each game server's card: dot, name, email, rounded position, health, game id, last ping", async () => {
    renderConnections([GRACE_GAME, ALAN_GAME]);
    expect(await screen.findByRole('tab', { name: 'Connections (1)' })).toBeInTheDocument();
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    expect(within(grace).getByTestId('connection-dot')).toHaveAttribute('data-connected', 'true');
    expect(within(grace).getByText('Connected')).toBeInTheDocument();
    expect(within(grace).getByText('grace@example.com')).toBeInTheDocument();
    expect(valueOf(grace, 'Position')).toBe('10, 4, -8');
    // maxHealth not reported: 100.
    expect(valueOf(grace, 'Health')).toBe('40 / 100');
    expect(valueOf(grace, 'Game ID')).toBe('606849621');
    expect(valueOf(grace, 'Last Ping')).toBe(
      new Date(GRACE_GAME.lastPing).toLocaleTimeString('en', { timeStyle: 'medium' }),
    );

    const alan = cardOf('Alan Turing');
    expect(within(alan).getByTestId('connection-dot')).toHaveAttribute('data-connected', 'false');
    expect(within(alan).getByText('Disconnected')).toBeInTheDocument();
    expect(valueOf(alan, 'Health')).toBe('100 / 100');
    expect(valueOf(alan, 'Game ID')).toBe('Unknown');
    expect(valueOf(alan, 'Position')).toBe('Unknown');
    // A disconnected game server takes no commands.
    for (const name of ['Spawn', 'Heal', 'Speed', 'Reset']) {
      expect(within(alan).getByRole('button', { name })).toBeDisabled();
      expect(within(grace).getByRole('button', { name })).toBeEnabled();
    }
  });

  it("says 'No active connections' when no game has ever connected", async () => {
    renderConnections([]);
    expect(await screen.findByText('No active connections')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Connections (0)' })).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it("sends the quick commands to that game server and toasts 'Command Sent'", async () => {
    const { sent } = renderConnections([GRACE_GAME]);
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    for (const name of ['Spawn', 'Heal', 'Speed', 'Reset']) {
      const before = sent.length;
      await userEvent.click(within(grace).getByRole('button', { name }));
      await waitFor(() => expect(sent).toHaveLength(before + 1));
    }
    const serverId = GRACE_GAME.serverId;
    expect(sent).toEqual([
      { type: 'teleport', data: { x: 0, y: 50, z: 0 }, serverId },
      { type: 'heal', data: {}, serverId },
      { type: 'speed', data: { speed: 50 }, serverId },
      { type: 'reset', data: {}, serverId },
    ]);
    expect(await screen.findByText('Command Sent')).toBeInTheDocument();
    expect(screen.getByText('Command queued for execution')).toBeInTheDocument();
  });

  it('follows the sent command live: queued, delivered, done', async () => {
    renderConnections([GRACE_GAME]);
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    await userEvent.click(within(grace).getByRole('button', { name: 'Heal' }));
    const line = await within(grace).findByTestId('connection-last-command');
    expect(line).toHaveTextContent('Last command:Heal');
    expect(line).toHaveTextContent('Queued');
    act(() => socket.serverSends('command:update', { command: commandView({ id: 'cmd-1', status: 'delivered' }) }));
    expect(line).toHaveTextContent('Delivered');
    act(() => socket.serverSends('command:update', { command: commandView({ id: 'cmd-1', status: 'succeeded' }) }));
    expect(line).toHaveTextContent('Done');
  });

  it("shows a failed command's error", async () => {
    renderConnections([GRACE_GAME]);
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    await userEvent.click(within(grace).getByRole('button', { name: 'Reset' }));
    await within(grace).findByTestId('connection-last-command');
    act(() =>
      socket.serverSends('command:update', {
        command: commandView({ id: 'cmd-1', type: 'reset', status: 'failed', error: 'No character to reset' }),
      }),
    );
    expect(within(grace).getByText('No character to reset')).toBeInTheDocument();
    expect(within(grace).getByTestId('connection-last-command')).toHaveTextContent('Failed');
  });

  it("toasts 'Failed' / 'Could not send command.' when the server refuses", async () => {
    renderAdmin(
      {
        'GET /api/admin/connections': () => ({ body: connectionList([GRACE_GAME]) }),
        [`POST /api/admin/users/${GRACE.id}/command`]: () => ({
          status: 409,
          body: { error: 'That game server is not connected' },
        }),
      },
      'connections',
    );
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    await userEvent.click(within(grace).getByRole('button', { name: 'Heal' }));
    expect(await screen.findByText('Could not send command. (That game server is not connected)')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
  });

  it("updates a card from 'game:servers' events: new player data, then disconnected", async () => {
    const { callsTo } = renderConnections([GRACE_GAME, ALAN_GAME]);
    const grace = await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    const lastPing = new Date().toISOString();
    const healed = { ...GRACE_GAME.gameData, health: 100, maxHealth: 100, position: { x: 0, y: 50.4, z: 0 } };
    act(() =>
      socket.serverSends('game:servers', {
        changes: [
          {
            userId: GRACE.id,
            servers: [
              { serverId: GRACE_GAME.serverId, connected: true, lastPing, connectedAt: lastPing, gameData: healed },
            ],
            gone: [],
          },
        ],
      }),
    );
    // The query cache tells the screen on its next tick.
    await waitFor(() => expect(valueOf(grace, 'Health')).toBe('100 / 100'));
    expect(valueOf(grace, 'Position')).toBe('0, 50, 0');

    act(() =>
      socket.serverSends('game:servers', {
        changes: [{ userId: GRACE.id, servers: [], gone: [{ serverId: GRACE_GAME.serverId, lastPing }] }],
      }),
    );
    expect(await within(grace).findByText('Disconnected')).toBeInTheDocument();
    expect(within(grace).getByRole('button', { name: 'Heal' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Connections (0)' })).toBeInTheDocument();
    // Patched in place: fetched once.
    expect(callsTo('GET', '/api/admin/connections')).toHaveLength(1);
  });

  it('fetches the list again when a game server it does not show connects', async () => {
    let items = [GRACE_GAME];
    const { callsTo } = renderAdmin(
      { 'GET /api/admin/connections': () => ({ body: connectionList(items) }) },
      'connections',
    );
    await screen.findByRole('article', { name: 'Connection of Grace Hopper' });
    const alanLive = { ...ALAN_GAME, isConnected: true, lastPing: new Date().toISOString() };
    items = [GRACE_GAME, alanLive];
    act(() =>
      socket.serverSends('game:servers', {
        changes: [
          {
            userId: ALAN.id,
            servers: [
              {
                serverId: 'studio',
                connected: true,
                lastPing: alanLive.lastPing,
                connectedAt: alanLive.lastPing,
                gameData: null,
              },
            ],
            gone: [],
          },
        ],
      }),
    );
    expect(await screen.findByRole('article', { name: 'Connection of Alan Turing' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Connections (2)' })).toBeInTheDocument();
    expect(callsTo('GET', '/api/admin/connections')).toHaveLength(2);
  });

  it('on a wide window draws its cards three to a row, only the rows in view, each card counted in the list', async () => {
    // From Chakra's 2xl breakpoint (96rem) up.
    vi.stubGlobal('matchMedia', (query: string) => ({
      media: query,
      matches: query.includes('min-width'),
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    }));
    const items = Array.from({ length: 50 }, (_, index) =>
      connection({ userId: `u-${index}`, userName: `Player ${index}`, serverId: `job-${index}` }),
    );
    renderConnections(items);
    await screen.findByRole('article', { name: 'Connection of Player 0' });
    const list = screen.getByRole('list', { name: 'Connections' });
    const rows = list.querySelectorAll(':scope > [data-index]');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.length).toBeLessThan(17);
    for (const row of rows) expect(within(row as HTMLElement).getAllByRole('article')).toHaveLength(3);
    const places = within(list).getAllByRole('listitem', { name: '' });
    expect(places.map((place) => place.getAttribute('aria-posinset'))).toEqual(
      places.map((_, index) => String(index + 1)),
    );
    expect(within(places[4]!).getByRole('article')).toHaveAccessibleName('Connection of Player 4');
  });
});

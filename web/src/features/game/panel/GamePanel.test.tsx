import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import type { GameStatus } from '@moonrelay/contract/game';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { useServerChoice } from '../../../lib/game-link.ts';
import { useLiveStore } from '../live/live-store.ts';
import { DISCONNECTED, PLAYER, agoIso, connectedStatus, testServer } from '../../../test/test-game.ts';
import { SERVER_CHOICES_SHOWN, SERVER_SELECT_TEXT } from '../../../components/ServerSelect.tsx';
import { GamePanel } from './GamePanel.tsx';
import { useLastCommand } from './useGameCommand.ts';

type Routes = Parameters<typeof jsonFetch>[0];

const PROFILE = {
  id: 156,
  name: 'builderman',
  displayName: 'Builder Man',
  description: 'Roblox founder',
  avatarUrl: 'https://tr.rbxcdn.com/avatar.png',
  hasVerifiedBadge: true,
  created: '2006-02-27T21:06:40.300Z',
};

/** Renders the Game panel against a stubbed API; answers the bodies of the commands sent. */
function renderPanel(status: GameStatus, routes: Routes = {}) {
  const commands: unknown[] = [];
  const fetch = vi.fn(
    jsonFetch({
      'GET /api/game/status': () => ({ body: status }),
      'GET /api/game/profile': () => ({ body: PROFILE }),
      'POST /api/game/command': (body) => {
        commands.push(body);
        return {
          body: { queued: true, message: 'Command queued', id: `c${commands.length}`, ids: [`c${commands.length}`] },
        };
      },
      ...routes,
    }),
  );
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<GamePanel />);
  return { commands, fetch };
}

const region = (name: string) => screen.getByRole('region', { name });
const connectionBadge = () => screen.findByTestId('game-connection');

beforeEach(() => {
  signInAs();
  // Live socket up: the status is fetched once, as the dashboard does while events arrive.
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
  useServerChoice.setState({ serverId: null });
  useLastCommand.setState({ sent: null });
  useLiveStore.getState().clear();
});

describe('Game Connection', () => {
  it('shows a connected game and its player data: position rounded, health over max health, ids', async () => {
    renderPanel(connectedStatus());
    expect(await connectionBadge()).toHaveTextContent('Connected');
    const card = region('Game Connection');
    expect(within(card).getByText('Game is connected and receiving commands')).toBeInTheDocument();
    expect(within(card).getByText(/^Last ping: \d{1,2}:\d{2}:\d{2}/)).toBeInTheDocument();
    expect(within(card).getByText('12, 6, -7')).toBeInTheDocument();
    expect(within(card).getByText('75 / 100')).toBeInTheDocument();
    expect(within(card).getByText('builderman')).toBeInTheDocument();
    expect(within(card).getByText('156')).toBeInTheDocument();
    expect(within(card).getByText('13058')).toBeInTheDocument();
  });

  it('takes health and max health as 100 when the game does not report them', async () => {
    const { health: _health, maxHealth: _maxHealth, ...withoutHealth } = PLAYER;
    renderPanel(connectedStatus({ gameData: withoutHealth }));
    expect(await within(region('Game Connection')).findByText('100 / 100')).toBeInTheDocument();
  });

  it('shows Disconnected and the steps to connect when no game pings', async () => {
    renderPanel(DISCONNECTED);
    expect(await connectionBadge()).toHaveTextContent('Disconnected');
    const card = region('Game Connection');
    expect(within(card).getAllByRole('listitem')).toHaveLength(4);
    expect(within(card).getByText(/turn on Allow HTTP Requests/)).toBeInTheDocument();
    expect(within(card).getByText(/tick LoadStringEnabled/)).toBeInTheDocument();
    expect(within(card).getByText(/paste the Quick Loader/)).toBeInTheDocument();
    expect(within(card).getByText(/connects to Moonrelay automatically/)).toBeInTheDocument();
    expect(within(card).queryByText('Game is connected and receiving commands')).not.toBeInTheDocument();
  });

  it("marks a Studio session: Play's server id, or a local test server's test players", async () => {
    const studioPlayer = { ...PLAYER, playerName: 'Player1', userId: -1 };
    const { fetch } = renderPanel(
      connectedStatus({
        gameData: studioPlayer,
        servers: [testServer({ serverId: 'studio', gameData: studioPlayer })],
      }),
    );
    expect(await screen.findByTestId('game-studio')).toHaveTextContent('Studio');
    // A test player has no Roblox profile: none is asked for.
    expect(
      within(region('Player Profile')).getByText('A Studio test player has no Roblox profile.'),
    ).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/game/profile'))).toBe(false);
  });

  it('shows no Studio badge for a live game server', async () => {
    renderPanel(connectedStatus());
    await connectionBadge();
    expect(screen.queryByTestId('game-studio')).not.toBeInTheDocument();
  });

  it("says the game's pings are refused, and why, instead of a silently missing server", async () => {
    renderPanel({
      ...DISCONNECTED,
      refusedPings: [
        {
          serverId: 'job-1',
          reason: 'playerData.health: Too small: expected number to be >=0',
          refusedAt: agoIso(5_000),
        },
      ],
    });
    const alert = await screen.findByTestId('game-pings-refused');
    expect(within(alert).getByText("Your game's pings are refused")).toBeInTheDocument();
    expect(within(alert).getByText(/^job-1: playerData\.health: Too small/)).toBeInTheDocument();
  });

  it("warns the owner when game servers are refused for the API key's server budget", async () => {
    renderPanel({
      ...connectedStatus(),
      serverBudget: {
        serverId: '*budget',
        reason: 'job-77: Too many game servers on this API key',
        refusedAt: agoIso(5_000),
      },
    });
    const alert = await screen.findByTestId('game-server-budget');
    expect(within(alert).getByText('Your game has more servers than its API key allows')).toBeInTheDocument();
    expect(within(alert).getByText(/^job-77: Too many game servers on this API key/)).toBeInTheDocument();
    expect(within(alert).getByText(/GAME_MAX_SERVERS_PER_KEY/)).toBeInTheDocument();
  });

  it('reads a last ping 10 s old as Disconnected, although the status says connected', async () => {
    const server = testServer({ lastPing: agoIso(GAME_CONNECTED_WINDOW_MS + 1000) });
    renderPanel(connectedStatus({ lastPing: server.lastPing, servers: [server] }));
    expect(await connectionBadge()).toHaveTextContent('Disconnected');
    expect(screen.getByRole('button', { name: 'Heal Player' })).toBeDisabled();
  });

  it('turns Disconnected by itself when the last ping passes 10 s, with no new status', async () => {
    // Only the clock the screen reads is held: however slow the render, the ping is 9.2 s old until
    // the test moves the clock; the screen's own timer (a real one) then has to notice by itself.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    const server = testServer({ lastPing: agoIso(GAME_CONNECTED_WINDOW_MS - 800) });
    const { fetch } = renderPanel(connectedStatus({ lastPing: server.lastPing, servers: [server] }));
    expect(await connectionBadge()).toHaveTextContent('Connected');
    vi.setSystemTime(Date.now() + 1000);
    await waitFor(() => expect(screen.getByTestId('game-connection')).toHaveTextContent('Disconnected'), {
      timeout: 3000,
    });
    expect(screen.getByRole('button', { name: 'Heal Player' })).toBeDisabled();
    // Judged on the clock: the status was fetched once.
    expect(fetch.mock.calls.filter(([url]) => url === '/api/game/status')).toHaveLength(1);
  });
});

describe('Game Controls', () => {
  it('disables every control while the game is disconnected', async () => {
    renderPanel(DISCONNECTED);
    await connectionBadge();
    const controls = region('Game Controls');
    for (const button of within(controls).getAllByRole('button')) expect(button).toBeDisabled();
    for (const name of ['X', 'Y', 'Z']) expect(within(controls).getByLabelText(name)).toBeDisabled();
    expect(
      within(controls)
        .getAllByRole('button')
        .map((button) => button.textContent?.trim()),
    ).toEqual(['Teleport', 'Spawn', 'Sky', 'Far Away', 'Heal Player', 'Speed Boost', 'Reset Character']);
  });

  it('sends each command with its data, and toasts Command Sent', async () => {
    const { commands } = renderPanel(connectedStatus());
    await connectionBadge();
    const controls = region('Game Controls');
    const press = async (name: string) => {
      const before = commands.length;
      await userEvent.click(within(controls).getByRole('button', { name }));
      await waitFor(() => expect(commands).toHaveLength(before + 1));
    };

    for (const name of ['Spawn', 'Sky', 'Far Away', 'Heal Player', 'Speed Boost', 'Reset Character']) {
      await press(name);
    }
    expect(commands).toEqual([
      { type: 'teleport', data: { x: 0, y: 50, z: 0 } },
      { type: 'teleport', data: { x: 0, y: 500, z: 0 } },
      { type: 'teleport', data: { x: 1000, y: 50, z: 1000 } },
      { type: 'heal', data: {} },
      { type: 'speed', data: { multiplier: 2 } },
      { type: 'reset', data: {} },
    ]);
    const shown = await screen.findByTestId('toast');
    expect(within(shown).getByText('Command Sent')).toBeInTheDocument();
    expect(within(shown).getByText('Command queued for game execution')).toBeInTheDocument();
  });

  it('teleports to the decimal coordinates typed, and not while one is not a number', async () => {
    const { commands } = renderPanel(connectedStatus());
    await connectionBadge();
    const controls = region('Game Controls');
    const teleport = within(controls).getByRole('button', { name: 'Teleport' });
    for (const [name, value] of [
      ['X', '10.5'],
      ['Y', '20'],
      ['Z', '-3.25'],
    ] as const) {
      await userEvent.clear(within(controls).getByLabelText(name));
      await userEvent.type(within(controls).getByLabelText(name), value);
    }
    await userEvent.click(teleport);
    await waitFor(() => expect(commands).toEqual([{ type: 'teleport', data: { x: 10.5, y: 20, z: -3.25 } }]));

    await userEvent.clear(within(controls).getByLabelText('Y'));
    expect(teleport).toBeDisabled();
  });

  it("toasts 'Failed' when the command cannot be sent", async () => {
    renderPanel(connectedStatus(), {
      'POST /api/game/command': () => ({ status: 409, body: { error: 'Game not connected' } }),
    });
    await connectionBadge();
    await userEvent.click(screen.getByRole('button', { name: 'Heal Player' }));
    const shown = await screen.findByTestId('toast');
    expect(shown).toHaveAttribute('data-type', 'error');
    expect(within(shown).getByText('Failed')).toBeInTheDocument();
    expect(within(shown).getByText('Could not send command to game (Game not connected)')).toBeInTheDocument();
  });

  it('shows how the last command is doing as command updates arrive', async () => {
    renderPanel(connectedStatus());
    await connectionBadge();
    await userEvent.click(screen.getByRole('button', { name: 'Heal Player' }));
    const line = await screen.findByTestId('last-command');
    expect(line).toHaveTextContent('Heal');
    expect(line).toHaveTextContent('Queued');
    const command = {
      id: 'c1',
      userId: 'u1',
      serverId: 'a4f0c3c2-1111-2222-3333-444455556666',
      type: 'heal' as const,
      status: 'failed' as const,
      source: 'dashboard' as const,
      executionId: null,
      attempts: 1,
      output: null,
      error: 'Character not found',
      durationMs: 1,
      createdAt: agoIso(500),
      deliveredAt: agoIso(400),
      completedAt: agoIso(100),
    };
    useLiveStore.getState().commandUpdated(command);
    expect(await screen.findByText('Character not found')).toBeInTheDocument();
    expect(screen.getByTestId('last-command')).toHaveTextContent('Failed');
  });

  it('with several live servers, picks the server the controls act on and names it', async () => {
    const first = testServer({ serverId: 'job-aaaaaaaa-1', lastPing: agoIso(500) });
    const second = testServer({ serverId: 'job-bbbbbbbb-2', gameData: { ...PLAYER, playerName: 'Roblox' } });
    const { commands } = renderPanel(connectedStatus({ lastPing: first.lastPing, servers: [first, second] }));
    const picker = await screen.findByLabelText('Game server');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['job-aaaa… · builderman', 'job-bbbb… · Roblox']);
    await userEvent.selectOptions(picker, 'job-bbbbbbbb-2');
    expect(within(region('Game Connection')).getByText('Roblox')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Heal Player' }));
    await waitFor(() => expect(commands).toEqual([{ type: 'heal', data: {}, serverId: 'job-bbbbbbbb-2' }]));
  });

  it("lists the first 50 of a hit game's servers and finds the others by search", async () => {
    const servers = Array.from({ length: 5000 }, (_, index) =>
      testServer({ serverId: `job-${String(index).padStart(8, '0')}-x` }),
    );
    renderPanel(connectedStatus({ lastPing: servers[0]!.lastPing, servers }));
    const picker = await screen.findByLabelText('Game server');
    expect(within(picker).getAllByRole('option')).toHaveLength(SERVER_CHOICES_SHOWN);
    await userEvent.type(
      screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Game server') }),
      'job-00004321',
    );
    expect(
      within(picker)
        .getAllByRole<HTMLOptionElement>('option')
        .map((option) => option.value),
    ).toEqual(['job-00000000-x', 'job-00004321-x']);
  });

  it('shows no picker and names no server with one live server', async () => {
    const { commands } = renderPanel(connectedStatus());
    await connectionBadge();
    expect(screen.queryByLabelText('Game server')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset Character' }));
    await waitFor(() => expect(commands).toEqual([{ type: 'reset', data: {} }]));
  });
});

describe('Player Profile', () => {
  it('asks to connect a game, and requests no profile, while disconnected', async () => {
    const { fetch } = renderPanel(DISCONNECTED);
    await connectionBadge();
    expect(within(region('Player Profile')).getByText('Connect to game to view profile')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/game/profile'))).toBe(false);
  });

  it("shows 'Loading player profile...', then the profile of the game's player", async () => {
    let answer = (_value: { body: unknown }) => {};
    const answered = new Promise<{ body: unknown }>((resolve) => (answer = resolve));
    const { fetch } = renderPanel(connectedStatus());
    const answerJson = fetch.getMockImplementation()!;
    // The profile answers only when the test says so, so the loading text can be seen.
    fetch.mockImplementation(async (input, init) => {
      if (!String(input).startsWith('/api/game/profile')) return answerJson(input, init);
      const { body } = await answered;
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    });
    const card = region('Player Profile');
    expect(await within(card).findByText('Loading player profile...')).toBeInTheDocument();
    answer({ body: PROFILE });
    expect(await within(card).findByText('Builder Man')).toBeInTheDocument();
    expect(within(card).getByText('@builderman')).toBeInTheDocument();
    expect(within(card).getByText('Verified')).toBeInTheDocument();
    expect(within(card).getByText('ID: 156')).toBeInTheDocument();
    expect(within(card).getByText('Roblox founder')).toBeInTheDocument();
    expect(within(card).getByText('Joined Feb 27, 2006')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/api/game/profile?userId=156', expect.objectContaining({ method: 'GET' }));
  });

  it('falls back to the name without a display name, and shows no badge without verification', async () => {
    renderPanel(connectedStatus(), {
      'GET /api/game/profile': () => ({ body: { ...PROFILE, displayName: '', hasVerifiedBadge: false } }),
    });
    const card = region('Player Profile');
    expect(await within(card).findByText('builderman')).toBeInTheDocument();
    expect(within(card).queryByText('Verified')).not.toBeInTheDocument();
  });

  it('says the profile is unavailable when Roblox cannot be reached (502)', async () => {
    renderPanel(connectedStatus(), {
      'GET /api/game/profile': () => ({ status: 502, body: { error: 'Player profile unavailable' } }),
    });
    expect(await within(region('Player Profile')).findByText('Player profile unavailable')).toBeInTheDocument();
  });
});

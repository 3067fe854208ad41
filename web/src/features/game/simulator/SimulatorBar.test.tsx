import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameStatus } from '@moonrelay/contract/game';
import { SIMULATED_PLAYER, SIMULATOR_ERRORS, type SimulatorStatus } from '@moonrelay/contract/simulator';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { useServerChoice } from '../../../lib/game-link.ts';
import { GamePanel } from '../panel/GamePanel.tsx';
import { DISCONNECTED, agoIso, connectedStatus, testServer } from '../../../test/test-game.ts';

const SERVER_ID = 'simulated-3f9a1c2b';

const idle = (lastStop: SimulatorStatus['lastStop'] = null): SimulatorStatus => ({
  running: false,
  serverId: SERVER_ID,
  playerName: SIMULATED_PLAYER.name,
  startedAt: null,
  endsAt: null,
  lastStop,
});

const running = (endsAt = new Date(Date.now() + 5 * 60_000).toISOString()): SimulatorStatus => ({
  ...idle(),
  running: true,
  startedAt: new Date().toISOString(),
  endsAt,
});

/** The game status with the simulated server pinging now. */
const simulatedLive = (): GameStatus => {
  const server = testServer({
    serverId: SERVER_ID,
    lastPing: agoIso(500),
    gameData: {
      playerName: SIMULATED_PLAYER.name,
      userId: SIMULATED_PLAYER.userId,
      position: { x: 0, y: 5, z: 0 },
      health: 75,
      maxHealth: 100,
      walkSpeed: 16,
    },
  });
  return connectedStatus({ lastPing: server.lastPing, gameData: server.gameData, servers: [server] });
};

interface Api {
  game: GameStatus;
  simulator: SimulatorStatus;
  /** The start's answer: a status, or a refusal. */
  start: () => { status?: number; body: unknown };
  stop: () => { status?: number; body: unknown };
}

/**
 * The Game panel against a stubbed API whose answers the test changes as it goes. A start or stop
 * may be held (`hold`) to see the button while it is on its way, until `release`.
 */
function renderPanel(initial: Partial<Api> = {}) {
  const api: Api = {
    game: DISCONNECTED,
    simulator: idle(),
    start: () => {
      api.simulator = running();
      api.game = simulatedLive();
      return { body: api.simulator };
    },
    stop: () => {
      api.simulator = idle({ reason: 'stopped', at: new Date().toISOString(), error: null });
      return { body: api.simulator };
    },
    ...initial,
  };
  let release: (() => void) | undefined;
  let held: string | undefined;
  const calls: string[] = [];
  const answer = jsonFetch({
    'GET /api/game/status': () => ({ body: api.game }),
    'GET /api/game/simulator': () => ({ body: api.simulator }),
    'POST /api/game/simulator': () => api.start(),
    'DELETE /api/game/simulator': () => api.stop(),
    'GET /api/game/console/errors': () => ({ body: { servers: [] } }),
  });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
    calls.push(call);
    if (call === held) await new Promise<void>((resolve) => (release = resolve));
    return answer(input, init);
  });
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<GamePanel />);
  return {
    api,
    calls,
    hold: (call: string) => (held = call),
    release: () => release?.(),
  };
}

const bar = () => screen.findByRole('region', { name: 'Simulated game server' });
const startButton = () => screen.findByRole('button', { name: /Simulate a game server/ });

beforeEach(() => {
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
  useServerChoice.setState({ serverId: null });
});

describe('Simulate a game server', () => {
  it('is offered while no game is connected, saying what it does', async () => {
    renderPanel();
    const region = await bar();
    expect(within(region).getByText(/Try Moonrelay with a simulated game server for 5 minutes/)).toBeInTheDocument();
    expect(await startButton()).toBeEnabled();
  });

  it('shows Starting... while the start is on its way, then the running server with Stop and the Simulated badge', async () => {
    const panel = renderPanel();
    panel.hold('POST /api/game/simulator');
    await userEvent.click(await startButton());
    const starting = await screen.findByRole('button', { name: /Starting/ });
    expect(starting).toBeDisabled();
    panel.release();

    const stop = await screen.findByRole('button', { name: 'Stop' });
    expect(stop).toBeEnabled();
    const region = await bar();
    expect(within(region).getByTestId('simulator-state')).toHaveTextContent(
      /A simulated game server is connected, with its player SimulatedPlayer\. It stops by itself at \d{1,2}:\d{2}:\d{2}/,
    );
    expect(within(region).getByText('Simulated')).toBeInTheDocument();
    // The game status was read again: the Game panel shows it connected, marked Simulated.
    await waitFor(() => expect(screen.getByTestId('game-connection')).toHaveTextContent('Connected'));
    const connection = screen.getByRole('region', { name: 'Game Connection' });
    expect(within(connection).getByTestId('simulated-badge')).toHaveTextContent('Simulated');
    expect(within(connection).queryByTestId('game-studio')).not.toBeInTheDocument();
    const profile = screen.getByRole('region', { name: 'Player Profile' });
    expect(within(profile).getByText('A simulated player has no Roblox profile.')).toBeInTheDocument();
    expect(panel.calls.filter((call) => call === 'POST /api/game/simulator')).toHaveLength(1);
  });

  it('Stop shows Stopping..., then says it stopped and that it shows Disconnected once its last ping is 10 s old', async () => {
    const panel = renderPanel({ simulator: running(), game: simulatedLive() });
    panel.hold('DELETE /api/game/simulator');
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    expect(await screen.findByRole('button', { name: /Stopping/ })).toBeDisabled();
    panel.release();
    expect(await startButton()).toBeEnabled();
    expect(within(await bar()).getByTestId('simulator-state')).toHaveTextContent(
      'The simulated game server was stopped. It shows as Disconnected once its last ping is 10 seconds old',
    );
    expect(panel.calls).toContain('DELETE /api/game/simulator');
  });

  it('a refused start says why and keeps the button', async () => {
    renderPanel({ start: () => ({ status: 429, body: { error: SIMULATOR_ERRORS.full } }) });
    await userEvent.click(await startButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(SIMULATOR_ERRORS.full);
    expect(await startButton()).toBeEnabled();
  });

  it('reads its status again once it should have stopped by itself, and says so', async () => {
    // It ended a moment ago: the bar reads the status again a few seconds after the end it was given.
    const panel = renderPanel({ simulator: running(new Date(Date.now() - 2_900).toISOString()) });
    await screen.findByRole('button', { name: 'Stop' });
    panel.api.simulator = idle({ reason: 'time-up', at: new Date().toISOString(), error: null });
    expect(await startButton()).toBeEnabled();
    expect(within(await bar()).getByTestId('simulator-state')).toHaveTextContent(
      'The simulated game server stopped by itself: its time was up.',
    );
  });

  it('stays out of the way while a real game is connected', async () => {
    renderPanel({ game: connectedStatus() });
    await waitFor(() => expect(screen.getByTestId('game-connection')).toHaveTextContent('Connected'));
    expect(screen.queryByRole('region', { name: 'Simulated game server' })).not.toBeInTheDocument();
  });
});

import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameStatus } from '@moonrelay/contract/game';
import { SIMULATED_PLAYER, type SimulatorStatus } from '@moonrelay/contract/simulator';
import { ROLE_PERMISSIONS, type TeamPermission } from '@moonrelay/contract/teams';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { DISCONNECTED, connectedStatus } from '../../../test/test-game.ts';
import { CONNECT_TEXT } from '../integration/connect-text.ts';
import { GamePanel } from './GamePanel.tsx';

const IDLE_SIMULATOR: SimulatorStatus = {
  running: false,
  serverId: 'simulated-3f9a1c2b',
  playerName: SIMULATED_PLAYER.name,
  startedAt: null,
  endsAt: null,
  lastStop: null,
};

/** The Game panel for a person holding `permissions` in Studio (chosen unless `personal`). */
function renderPanel(permissions: readonly TeamPermission[], status: GameStatus, { personal = false } = {}) {
  const api = teamApi(permissions, {
    'GET /api/game/status': () => ({ body: status }),
    'GET /api/game/simulator': () => ({ body: IDLE_SIMULATOR }),
    'GET /api/game/console/errors': () => ({ body: { servers: [] } }),
    'GET /api/game/profile': () => ({ status: 502, body: { error: 'Roblox could not be reached' } }),
    'POST /api/game/command': () => ({ body: { queued: true, message: 'Command queued', id: 'c1', ids: ['c1'] } }),
    'POST /api/game/simulator': () => ({ body: IDLE_SIMULATOR }),
  });
  if (!personal) chooseTeam('t1');
  renderWithProviders(<GamePanel />);
  return api;
}

const controls = () => screen.getByRole('region', { name: 'Game Controls' });

beforeEach(() => {
  signInAs();
  // Live socket up: the status is fetched once, as the dashboard does while events arrive.
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe("GamePanel: what a team member's role allows", () => {
  it('disables the controls of a moderator, saying they need game.control, and sends no command', async () => {
    const { calls } = renderPanel(ROLE_PERMISSIONS.moderator, connectedStatus());
    expect(await screen.findByTestId('game-connection')).toHaveTextContent('Connected');
    expect(
      within(controls()).getByText('Teleport, heal, speed boost and reset: Needs the permission game.control'),
    ).toBeInTheDocument();
    for (const name of [/Heal Player/, /Speed Boost/, /Reset Character/, 'Spawn', /Teleport/]) {
      expect(within(controls()).getByRole('button', { name })).toBeDisabled();
    }
    expect(within(controls()).getByRole('button', { name: /Heal Player/ })).toHaveAttribute(
      'title',
      'Needs the permission game.control',
    );
    // Enter in the coordinates sends nothing either.
    fireEvent.submit(within(controls()).getByRole('form', { name: 'Teleport' }));
    expect(calls).not.toContain('POST /api/game/command');
  });

  it('disables starting the simulated server for a role without game.control', async () => {
    const { calls } = renderPanel(ROLE_PERMISSIONS.moderator, DISCONNECTED);
    const bar = await screen.findByRole('region', { name: 'Simulated game server' });
    expect(within(bar).getByRole('button', { name: /Simulate a game server/ })).toBeDisabled();
    expect(
      within(bar).getByText('Start and stop the simulated game server: Needs the permission game.control'),
    ).toBeInTheDocument();
    expect(calls).not.toContain('POST /api/game/simulator');
    // The Quick Loader carries the team's game key, which a moderator may not see: the steps say whom to ask.
    expect(screen.getByTestId('connect-steps')).toHaveTextContent(CONNECT_TEXT.pasteRefused);
    expect(calls).not.toContain('GET /api/game/integration-scripts');
  });

  it('asks nothing of the game for a member who may not see its servers, and says why', async () => {
    const { calls } = renderPanel(['scripts.read', 'game.control'], connectedStatus());
    const card = screen.getByRole('region', { name: 'Game Connection' });
    expect(
      await within(card).findByText('See the game servers and their status: Needs the permission console.read'),
    ).toBeInTheDocument();
    expect(within(card).queryByText('Checking the game connection...')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls.filter((call) => call.startsWith('GET /api/game'))).toEqual([]);
  });

  it('leaves every control open on the person’s own account', async () => {
    renderPanel(ROLE_PERMISSIONS.moderator, connectedStatus(), { personal: true });
    expect(await screen.findByTestId('game-connection')).toHaveTextContent('Connected');
    expect(within(controls()).getByRole('button', { name: /Heal Player/ })).toBeEnabled();
    expect(within(controls()).getByRole('button', { name: /Teleport/ })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

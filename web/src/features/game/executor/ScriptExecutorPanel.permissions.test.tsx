import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS, type TeamPermission } from '@moonrelay/contract/teams';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs, testScript } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { DISCONNECTED } from '../../../test/test-game.ts';
import { ScriptExecutorPanel } from './ScriptExecutorPanel.tsx';

const SCRIPTS = [testScript({ id: 's1', name: 'Fly' })];

/**
 * The executor for a person holding `permissions` in Studio (chosen unless `personal`), with the
 * scripts the dashboard hands it: none where the role may not read them, as the dashboard's list is
 * then not asked for (the scripts feature's tests show that).
 */
function renderExecutor(permissions: readonly TeamPermission[], { personal = false } = {}) {
  const api = teamApi(permissions, { 'GET /api/game/status': () => ({ body: DISCONNECTED }) });
  if (!personal) chooseTeam('t1');
  const readable = personal || permissions.includes('scripts.read');
  renderWithProviders(<ScriptExecutorPanel scripts={readable ? SCRIPTS : undefined} scriptsFailed={false} />);
  return api;
}

beforeEach(() => {
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe("ScriptExecutorPanel: what a team member's role allows", () => {
  it('disables running for a role without runs.game, saying so', async () => {
    const { calls } = renderExecutor(['scripts.read', 'runs.sandbox', 'console.read']);
    expect(await screen.findByRole('button', { name: 'Run Fly' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Run Fly' })).toHaveAttribute('title', 'Needs the permission runs.game');
    expect(screen.getByRole('button', { name: /Execute Custom Code/ })).toBeDisabled();
    expect(screen.getByText('Run scripts and code in the game: Needs the permission runs.game')).toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('says why a moderator has no scripts to run, rather than loading them for ever', async () => {
    renderExecutor(ROLE_PERMISSIONS.moderator);
    const list = screen.getByTestId('executor-scripts');
    expect(await within(list).findByText('See the scripts: Needs the permission scripts.read')).toBeInTheDocument();
    expect(within(list).queryByText('Loading scripts...')).not.toBeInTheDocument();
  });

  it('lets the person run anything on their own account', async () => {
    renderExecutor(ROLE_PERMISSIONS.moderator, { personal: true });
    expect(await screen.findByRole('button', { name: 'Run Fly' })).toBeEnabled();
    expect(screen.getByRole('button', { name: /Execute Custom Code/ })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

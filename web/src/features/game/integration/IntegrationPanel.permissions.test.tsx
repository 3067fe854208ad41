import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { IntegrationPanel } from './IntegrationPanel.tsx';

const SCRIPTS = {
  quickLoader: 'loadstring(game:GetService("HttpService"):GetAsync("https://moonrelay.games/api/game/loader"))()',
  gameIntegration: '-- Moonrelay game integration\n',
  teleportExample: '-- Dashboard teleport example\n',
  reachability: { reachable: true, address: 'https://moonrelay.games', https: true },
};
const routes = { 'GET /api/game/integration-scripts': () => ({ body: SCRIPTS }) };

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("IntegrationPanel: what a team member's role allows", () => {
  it('does not ask a moderator’s scripts, which carry the game key, and says they need keys.manage', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator, routes);
    chooseTeam('t1');
    renderWithProviders(<IntegrationPanel />);
    expect(
      await screen.findByText(
        'See the integration scripts, which carry the game key: Needs the permission keys.manage',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Quick Loader' })).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls).not.toContain('GET /api/game/integration-scripts');
  });

  it('shows them on the person’s own account', async () => {
    teamApi(ROLE_PERMISSIONS.moderator, routes);
    renderWithProviders(<IntegrationPanel />);
    expect(await screen.findByRole('region', { name: 'Quick Loader' })).toBeInTheDocument();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

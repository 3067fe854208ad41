import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { consoleLines, pageOf } from '../../../components/console/test-console.ts';
import { closeLiveSocket, useLiveSocketState } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { connectedStatus } from '../../../test/test-game.ts';
import { ConsolePanel } from './ConsolePanel.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const routes = {
  'GET /api/game/status': () => ({ body: connectedStatus() }),
  'GET /api/game/console': () => ({ body: pageOf(consoleLines(1, 2)) }),
  'GET /api/game/console/errors': () => ({ body: { servers: [] } }),
};
const texts = () => screen.queryAllByTestId('console-line-text').map((element) => element.textContent);

beforeEach(() => {
  socket = new FakeSocket();
  signInAs();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  closeLiveSocket();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe("ConsolePanel: what a team member's role allows", () => {
  it('asks nothing of the console for a role without console.read, and says why', async () => {
    const { calls } = teamApi(['scripts.read', 'runs.read'], routes);
    chooseTeam('t1');
    renderWithProviders(<ConsolePanel height="20rem" />);
    expect(await screen.findByText('Read the console: Needs the permission console.read')).toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls.filter((call) => call.startsWith('GET /api/game'))).toEqual([]);
  });

  it('shows the console to a moderator, who may read it', async () => {
    teamApi(ROLE_PERMISSIONS.moderator, routes);
    chooseTeam('t1');
    renderWithProviders(<ConsolePanel height="20rem" />);
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2']));
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });

  it('shows it on the person’s own account', async () => {
    teamApi([], routes);
    renderWithProviders(<ConsolePanel height="20rem" />);
    await waitFor(() => expect(texts()).toEqual(['line 1', 'line 2']));
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeLiveSocket } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { PlayersScreen } from './PlayersScreen.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const routes = {
  'GET /api/players/online': () => ({ body: { players: [], total: 0, nextCursor: null } }),
};

beforeEach(() => {
  socket = new FakeSocket();
  signInAs();
});
afterEach(() => {
  closeLiveSocket();
  vi.unstubAllGlobals();
});

describe("PlayersScreen: what a team member's role allows", () => {
  it('asks for no list where the role may not see the players, and says why', async () => {
    const { calls } = teamApi(['scripts.read', 'runs.read'], routes);
    chooseTeam('t1');
    renderWithProviders(<PlayersScreen />);
    expect(
      await screen.findByText('See the players and the bans: Needs the permission players.read'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls.filter((call) => call.startsWith('GET /api/players'))).toEqual([]);
  });

  it('lists who is online on the person’s own account', async () => {
    const { calls } = teamApi([], routes);
    renderWithProviders(<PlayersScreen />);
    expect(await screen.findByText('Nobody is playing in your games right now.')).toBeInTheDocument();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/players/online');
  });
});

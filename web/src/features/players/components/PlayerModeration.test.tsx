import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { PlayerModeration } from './PlayerModeration.tsx';

/** A server where player 7 has no moderation yet, and the person is a viewer of Studio. */
function server() {
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/players/7/moderation': () => ({ body: { actions: [], ban: null, elsewhere: null } }),
      'GET /api/teams': () => ({
        body: [personalTeam(), testTeam({ id: 't1', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] })],
      }),
    }),
  );
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe("a player's moderation buttons", () => {
  it('are disabled for a role without the permission, each saying which one it needs', async () => {
    server();
    chooseTeam('t1');
    renderWithProviders(<PlayerModeration userId={7} online />);
    expect(await screen.findByText('Kick: Needs the permission players.kick')).toBeInTheDocument();
    expect(screen.getByText('Ban: Needs the permission players.ban')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kick' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Kick' })).toHaveAttribute('title', 'Needs the permission players.kick');
    expect(screen.getByRole('button', { name: 'Ban' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Warn' })).toBeDisabled();
  });

  it('are all open on the person’s own account', async () => {
    server();
    renderWithProviders(<PlayerModeration userId={7} online />);
    expect(await screen.findByText('No moderation yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kick' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Ban' })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

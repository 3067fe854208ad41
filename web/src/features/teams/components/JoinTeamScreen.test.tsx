import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEAM_ERRORS } from '@moonrelay/contract/teams';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { personalTeam, testTeam } from '../../../test/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { JoinTeamScreen } from './JoinTeamScreen.tsx';

const studio = testTeam({ id: 't1', name: 'Studio', role: 'viewer' });

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

function renderJoin(route: string) {
  renderWithProviders(
    <Routes>
      <Route path="/join" element={<JoinTeamScreen />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the join page', () => {
  it('joins with the link’s token, then opens the team’s Team screen', async () => {
    const sent: unknown[] = [];
    let joined = false;
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/teams/join': (body) => {
          sent.push(body);
          joined = true;
          return { body: studio };
        },
        'GET /api/teams': () => ({ body: joined ? [personalTeam(), studio] : [personalTeam()] }),
      }),
    );
    renderJoin('/join?token=abc123');
    expect(await screen.findByRole('heading', { name: TEAM_TEXT.joinTitle })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: TEAM_TEXT.join }));

    // The team gate follows ?team= to the new team: it must be in the list by then.
    expect(await screen.findByTestId('where')).toHaveTextContent('/team?team=t1');
    expect(sent).toEqual([{ token: 'abc123' }]);
    expect(queryClient.getQueryData(['/api/teams'])).toEqual([personalTeam(), studio]);
    expect(await screen.findByText(TEAM_TEXT.joinedTeam('Studio'))).toBeInTheDocument();
  });

  it('says what is wrong with a link in the server’s words, and stays', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'POST /api/teams/join': () => ({ status: 410, body: { error: TEAM_ERRORS.invitationExpired } }) }),
    );
    renderJoin('/join?token=old');
    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.join }));
    expect(await screen.findByText(TEAM_ERRORS.invitationExpired)).toBeInTheDocument();
    expect(screen.queryByTestId('where')).not.toBeInTheDocument();
  });

  it('offers nothing to join for a link without a token', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    renderJoin('/join');
    expect(await screen.findByText(TEAM_ERRORS.invitationInvalid)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: TEAM_TEXT.join })).toBeDisabled();
  });
});

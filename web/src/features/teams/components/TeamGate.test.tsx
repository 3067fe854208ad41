import { screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEAM_ERRORS, TEAM_HEADER } from '@moonrelay/contract/teams';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useTeam } from '../../../lib/team.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { NO_LONGER_MEMBER } from '../team-link.ts';
import { TeamGate } from './TeamGate.tsx';

const studio = testTeam({ id: 't1', name: 'Studio' });
const arcade = testTeam({ id: 't2', name: 'Arcade', role: 'viewer' });

/** A screen behind the gate: the team it acts on, the address, and the scripts it fetched. */
function Screen() {
  const teamId = useTeam((state) => state.teamId);
  const { search } = useLocation();
  const scripts = useQuery({
    queryKey: ['/api/scripts'],
    queryFn: () => apiRequest<{ owner: string }>('GET', '/api/scripts'),
  });
  return (
    <>
      <p data-testid="team">{teamId ?? 'own account'}</p>
      <p data-testid="search">{search}</p>
      <p data-testid="scripts">{scripts.data?.owner ?? 'loading'}</p>
    </>
  );
}

/** A server where the scripts answer whose they are: the team the request named, or the caller's own. */
function server(teams = [personalTeam(), studio, arcade]) {
  const fetch = vi.fn(
    jsonFetch({
      'GET /api/teams': () => ({ body: teams }),
    }),
  );
  const scripts = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/api/scripts') return fetch(input, init);
    const team = new Headers(init?.headers).get(TEAM_HEADER);
    return new Response(JSON.stringify({ owner: team ?? 'u1' }), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', scripts);
  return scripts;
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the team gate', () => {
  it('switches to the team a link names, and the screens fetch that team’s data', async () => {
    server();
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/runs?team=t2' },
    );
    expect(await screen.findByTestId('team')).toHaveTextContent('t2');
    expect(await screen.findByText('t2', { selector: '[data-testid="scripts"]' })).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('?team=t2');
    expect(localStorage.getItem('team:u1')).toBe('t2');
  });

  it('drops what was fetched for the previous team when a link switches team', async () => {
    server();
    chooseTeam('t1');
    queryClient.setQueryData(['/api/game/status'], { connected: true });
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/runs?team=t2' },
    );
    expect(await screen.findByText('t2', { selector: '[data-testid="scripts"]' })).toBeInTheDocument();
    expect(queryClient.getQueryData(['/api/game/status'])).toBeUndefined();
    // The list of teams is the person's own: it stays.
    expect(queryClient.getQueryData(['/api/teams'])).toHaveLength(3);
  });

  it('stays on the chosen team, saying why, when a link names a team the person is not in', async () => {
    server();
    chooseTeam('t1');
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/runs?team=someone-elses' },
    );
    expect(await screen.findByText(TEAM_ERRORS.notFound)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent('?team=t1'));
    expect(screen.getByTestId('team')).toHaveTextContent('t1');
    expect(await screen.findByText('t1', { selector: '[data-testid="scripts"]' })).toBeInTheDocument();
  });

  it('names the chosen team in the address, so a copied link opens it', async () => {
    server();
    chooseTeam('t1');
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/players?tab=bans' },
    );
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent('?tab=bans&team=t1'));
  });

  it('goes back to the own account when the person is no longer in the chosen team', async () => {
    server([personalTeam(), arcade]);
    chooseTeam('t1');
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/dashboard' },
    );
    expect(await screen.findByText(NO_LONGER_MEMBER)).toBeInTheDocument();
    expect(await screen.findByText('u1', { selector: '[data-testid="scripts"]' })).toBeInTheDocument();
    expect(screen.getByTestId('team')).toHaveTextContent('own account');
  });

  it('opens the own account for a link naming it, and drops the parameter', async () => {
    server();
    chooseTeam('t1');
    renderWithProviders(
      <TeamGate>
        <Screen />
      </TeamGate>,
      { route: '/dashboard?team=u1' },
    );
    expect(await screen.findByText('u1', { selector: '[data-testid="scripts"]' })).toBeInTheDocument();
    expect(screen.getByTestId('team')).toHaveTextContent('own account');
    await waitFor(() => expect(screen.getByTestId('search')).toBeEmptyDOMElement());
  });
});

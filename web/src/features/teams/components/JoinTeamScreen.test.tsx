import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS, TEAM_ERRORS, type InvitationPreview } from '@moonrelay/contract/teams';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { personalTeam, testTeam } from '../../../test/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { JoinTeamScreen } from './JoinTeamScreen.tsx';

const studio = testTeam({ id: 't1', name: 'Studio', role: 'viewer' });
const offer: InvitationPreview = {
  teamName: 'Studio',
  role: 'viewer',
  permissions: [...ROLE_PERMISSIONS.viewer],
  invitedBy: 'grace',
  expiresAt: '2026-12-02T12:00:00.000Z',
};

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
        'GET /api/teams/invitations/abc123': () => ({ body: offer }),
      }),
    );
    renderJoin('/join?token=abc123');
    expect(await screen.findByRole('heading', { name: TEAM_TEXT.joinTitle })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.join }));

    // The team gate follows ?team= to the new team: it must be in the list by then.
    expect(await screen.findByTestId('where')).toHaveTextContent('/team?team=t1');
    expect(sent).toEqual([{ token: 'abc123' }]);
    expect(queryClient.getQueryData(['/api/teams'])).toEqual([personalTeam(), studio]);
    expect(await screen.findByText(TEAM_TEXT.joinedTeam('Studio'))).toBeInTheDocument();
  });

  it('shows what the link offers before joining, and uses nothing up by opening it', async () => {
    const calls: string[] = [];
    const routes = jsonFetch({ 'GET /api/teams/invitations/abc123': () => ({ body: offer }) });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
      return routes(input, init);
    });
    renderJoin('/join?token=abc123');
    const preview = await screen.findByTestId('invitation-preview');
    expect(preview).toHaveTextContent('Studio');
    expect(preview).toHaveTextContent('Viewer');
    expect(preview).toHaveTextContent('grace');
    expect(preview).toHaveTextContent(formatDateTime(offer.expiresAt));
    expect(screen.getByRole('button', { name: TEAM_TEXT.join })).toBeEnabled();
    expect(calls).toEqual(['GET /api/teams/invitations/abc123']);
  });

  it('says what is wrong with an expired link in the server’s words, with nothing to join', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/invitations/old': () => ({ status: 410, body: { error: TEAM_ERRORS.invitationExpired } }),
      }),
    );
    renderJoin('/join?token=old');
    expect(await screen.findByText(TEAM_ERRORS.invitationExpired)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TEAM_TEXT.join })).not.toBeInTheDocument();
    expect(screen.queryByTestId('invitation-preview')).not.toBeInTheDocument();
  });

  it('says so when the link was used between the preview and the click, and stays', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/invitations/abc123': () => ({ body: offer }),
        'POST /api/teams/join': () => ({ status: 410, body: { error: TEAM_ERRORS.invitationUsed } }),
      }),
    );
    renderJoin('/join?token=abc123');
    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.join }));
    expect(await screen.findByText(TEAM_ERRORS.invitationUsed)).toBeInTheDocument();
    expect(screen.queryByTestId('where')).not.toBeInTheDocument();
  });

  it('offers nothing to join for a link without a token', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    renderJoin('/join');
    expect(await screen.findByText(TEAM_ERRORS.invitationInvalid)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: TEAM_TEXT.join })).not.toBeInTheDocument();
  });
});

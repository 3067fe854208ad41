import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '@moonrelay/contract/admin';
import { ROLE_PERMISSIONS, TEAM_PERMISSIONS, type TeamActivityPage, type TeamDetails } from '@moonrelay/contract/teams';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam } from '../../../test/teams.ts';
import { ACTIVITY_TEXT } from '../activity-text.ts';
import { TeamActivity } from './TeamActivity.tsx';
import { TeamScreen } from './TeamScreen.tsx';

const member = (userId: string, username: string, role: 'owner' | 'moderator') => ({
  userId,
  name: username.charAt(0).toUpperCase() + username.slice(1),
  username,
  role,
  permissions: role === 'owner' ? [...TEAM_PERMISSIONS] : [...ROLE_PERMISSIONS.moderator],
  joinedAt: '2026-02-01T00:00:00.000Z',
});

/** Studio as Ada (an owner unless told otherwise) reads it, with Bob a moderator. */
function studio(permissions: TeamDetails['permissions'] = [...TEAM_PERMISSIONS]): TeamDetails {
  return {
    id: 't1',
    name: 'Studio',
    personal: false,
    role: 'owner',
    permissions,
    members: 2,
    createdAt: '2026-02-01T00:00:00.000Z',
    memberList: [member('u1', 'ada', 'owner'), member('u2', 'bob', 'moderator')],
    invitations: [],
  };
}

let serial = 0;
function entry(overrides: Partial<AuditEntry>): AuditEntry {
  serial += 1;
  return {
    id: `e${serial}`,
    actorId: 'u1',
    actorName: 'ada',
    action: 'team.created',
    targetType: 'team',
    targetId: 't1',
    details: {},
    createdAt: '2026-11-29T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * Answers the activity log by `answer(query)` and keeps every query asked; the team's details as
 * `details`.
 */
function serveActivity(answer: (query: URLSearchParams) => TeamActivityPage, details = studio()) {
  const asked: URLSearchParams[] = [];
  const routes = jsonFetch({ 'GET /api/teams/t1': () => ({ body: details }) });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/teams/t1/activity') return routes(input, init);
    asked.push(url.searchParams);
    return new Response(JSON.stringify(answer(url.searchParams)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return asked;
}

const rowsShown = () => screen.queryAllByTestId('activity-entry');

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the team’s activity log', () => {
  it('tells each entry in words, newest first, with when it happened', async () => {
    const banned = entry({
      action: 'moderation.ban',
      targetType: 'player',
      targetId: '156',
      details: { reason: 'Flying', durationSeconds: null },
      createdAt: '2026-11-29T12:03:00.000Z',
    });
    serveActivity(() => ({
      items: [
        banned,
        entry({
          action: 'team.member_changed',
          details: { userId: 'u2', from: 'moderator', to: 'custom', permissions: ['players.read'] },
        }),
        entry({ actorId: 'u2', actorName: 'bob', action: 'team.member_joined', details: { role: 'moderator' } }),
        // Bob is not in the list any more: the name his own entry kept says who he was.
        entry({ actorId: 'u9', actorName: null, action: 'account.key_regenerated' }),
      ],
      nextCursor: null,
    }));
    renderWithProviders(<TeamActivity team={studio()} />);

    const rows = await screen.findAllByTestId('activity-entry');
    expect(rows.map((row) => row.querySelector('.activity-sentence')?.textContent)).toEqual([
      'ada banned player 156',
      'ada changed bob: Moderator → Custom',
      'bob joined as Moderator',
      'a former member made a new game key: the old one stopped working',
    ]);
    expect(rows[0]).toHaveTextContent(formatDateTime(banned.createdAt));
    expect(rows[0]).toHaveTextContent('Reason: Flying');
    expect(rows[1]).toHaveTextContent('Permissions: players.read');
    expect(screen.getByText(ACTIVITY_TEXT.start)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ACTIVITY_TEXT.loadMore })).not.toBeInTheDocument();
  });

  it('filters on the server by kind and by member', async () => {
    const asked = serveActivity((query) => ({
      items: [
        entry({
          actorId: query.get('actorId') ?? 'u1',
          actorName: query.get('actorId') === 'u2' ? 'bob' : 'ada',
          action: query.get('action') === 'moderation.' ? 'moderation.kick' : 'team.created',
          targetType: 'player',
          targetId: '42',
        }),
      ],
      nextCursor: null,
    }));
    renderWithProviders(<TeamActivity team={studio()} />);
    expect(await screen.findByText('ada created the team')).toBeInTheDocument();
    expect(asked[0]?.get('action')).toBeNull();
    expect(asked[0]?.get('actorId')).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText(ACTIVITY_TEXT.kindLabel), 'Moderation');
    expect(await screen.findByText('ada kicked player 42')).toBeInTheDocument();
    expect(asked.at(-1)?.get('action')).toBe('moderation.');

    await userEvent.selectOptions(screen.getByLabelText(ACTIVITY_TEXT.personLabel), 'Bob (@bob)');
    expect(await screen.findByText('bob kicked player 42')).toBeInTheDocument();
    expect(asked.at(-1)?.get('action')).toBe('moderation.');
    expect(asked.at(-1)?.get('actorId')).toBe('u2');
    expect(asked.every((query) => query.get('cursor') === null)).toBe(true);
  });

  it('loads older entries by the cursor of the page before, then says that is all', async () => {
    const asked = serveActivity((query) =>
      query.get('cursor') === 'older'
        ? { items: [entry({ action: 'team.member_left', actorId: 'u2', actorName: 'bob' })], nextCursor: null }
        : { items: [entry({ action: 'team.invitation_revoked' })], nextCursor: 'older' },
    );
    renderWithProviders(<TeamActivity team={studio()} />);
    expect(await screen.findByText('ada revoked an invitation link')).toBeInTheDocument();
    expect(screen.queryByText('bob left the team')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: ACTIVITY_TEXT.loadMore }));
    expect(await screen.findByText('bob left the team')).toBeInTheDocument();
    expect(asked.map((query) => query.get('cursor'))).toEqual([null, 'older']);
    expect(rowsShown()).toHaveLength(2);
    // The button went with the last page; the keyboard is on the line saying so.
    expect(screen.queryByRole('button', { name: ACTIVITY_TEXT.loadMore })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(ACTIVITY_TEXT.start)).toHaveFocus());
  });

  it('draws only the rows in view of a long log', async () => {
    const items = Array.from({ length: 2000 }, (_, index) =>
      entry({ action: 'moderation.kick', targetType: 'player', targetId: String(index + 1) }),
    );
    serveActivity(() => ({ items, nextCursor: null }));
    renderWithProviders(<TeamActivity team={studio()} />);
    expect(await screen.findByText('ada kicked player 1')).toBeInTheDocument();
    expect(screen.getByText(ACTIVITY_TEXT.shown(2000))).toBeInTheDocument();
    expect(rowsShown().length).toBeGreaterThan(0);
    expect(rowsShown().length).toBeLessThan(60);
    expect(rowsShown()[0]).toHaveAttribute('aria-posinset', '1');
    expect(rowsShown()[0]).toHaveAttribute('aria-setsize', '2000');
    expect(screen.queryByText('ada kicked player 2000')).not.toBeInTheDocument();

    // Halfway down: the rows there, with their places in the whole log, and space for the others.
    const log = screen.getByRole('region', { name: ACTIVITY_TEXT.listLabel });
    log.scrollTop = 1000 * 64;
    fireEvent.scroll(log);
    expect(await screen.findByText('ada kicked player 1001')).toBeInTheDocument();
    expect(screen.queryByText('ada kicked player 1')).not.toBeInTheDocument();
    expect(screen.getByText('ada kicked player 1001').closest('li')).toHaveAttribute('aria-posinset', '1001');
    expect(rowsShown().length).toBeLessThan(60);
    const spacers = log.querySelectorAll('li[aria-hidden]');
    expect(spacers).toHaveLength(2);
    const heights = [...spacers].map((spacer) => parseInt((spacer as HTMLElement).style.height, 10));
    expect(heights[0]! + heights[1]! + rowsShown().length * 64).toBe(2000 * 64);
  });

  it('is not shown, nor asked for, without audit.read, and says why', async () => {
    const asked = serveActivity(
      () => ({ items: [entry({})], nextCursor: null }),
      studio([...ROLE_PERMISSIONS.moderator]),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });
    expect(await screen.findByRole('heading', { name: ACTIVITY_TEXT.title })).toBeInTheDocument();
    expect(screen.getByText(ACTIVITY_TEXT.hidden('Needs the permission audit.read'))).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: ACTIVITY_TEXT.listLabel })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(ACTIVITY_TEXT.kindLabel)).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });

  it('is on the Team screen of a member holding audit.read', async () => {
    serveActivity(() => ({ items: [entry({ action: 'team.deleted' })], nextCursor: null }));
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });
    const log = await screen.findByRole('region', { name: ACTIVITY_TEXT.listLabel });
    expect(within(log).getByText('ada deleted the team')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { AdminTeam } from '@moonrelay/contract/teams';
import { closeLiveSocket, useLiveSocketState } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { ADMIN_TEAMS_POLL_MS } from '../../api/teams.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { ADA, ALAN, GRACE, adminTeam, pageOf, renderAdmin } from '../../test-admin.tsx';
import { MEMBERS_SHOWN } from './TeamsTab.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
});
afterEach(() => {
  closeLiveSocket();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

const STUDIO = adminTeam();
const ARCADE = adminTeam({
  id: 't2222222-0000-4000-8000-000000000002',
  name: 'Arcade',
  scriptCount: 0,
  createdAt: '2026-03-05T10:00:00.000Z',
  members: [
    { userId: ADA.id, username: ADA.username, role: 'admin', permissions: [] },
    { userId: GRACE.id, username: GRACE.username, role: 'moderator', permissions: [] },
    { userId: ALAN.id, username: ALAN.username, role: 'custom', permissions: ['scripts.read'] },
  ],
});

/** A team of `count` members, an owner first. */
function bigTeam(count: number): AdminTeam {
  return adminTeam({
    id: 't3333333-0000-4000-8000-000000000003',
    name: 'Guild',
    members: Array.from({ length: count }, (_, index) => ({
      userId: `u-${index}`,
      username: `player${index}`,
      role: index === 0 ? 'owner' : 'viewer',
      permissions: [],
    })),
  });
}

const rowOf = (name: string) => {
  const row = screen.getByText(name, { exact: true }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const membersOf = (name: string) =>
  within(within(rowOf(name)).getByRole('list', { name: ADMIN_TEXT.membersOf(name) }))
    .getAllByRole('listitem')
    .map((member) => member.textContent);
const formatted = (iso: string) => new Date(iso).toLocaleDateString('en', { dateStyle: 'medium' });

describe('the Teams tab', () => {
  it('lists every team: its name, its members with their roles, its script count and when it was made', async () => {
    renderAdmin({ 'GET /api/admin/teams': () => ({ body: pageOf([ARCADE, STUDIO]) }) }, 'teams');
    expect(await screen.findByRole('tab', { name: 'Teams (2)' })).toHaveAttribute('aria-selected', 'true');
    await screen.findByText('Studio', { exact: true });

    expect(membersOf('Studio')).toEqual(['@grace Owner', '@alan Developer']);
    expect(membersOf('Arcade')).toEqual(['@ada Admin', '@grace Moderator', '@alan Custom']);
    const studio = rowOf('Studio');
    expect(within(studio).getByText('2 members')).toBeInTheDocument();
    expect(within(studio).getByText('4')).toBeInTheDocument();
    expect(within(studio).getByText(formatted(STUDIO.createdAt))).toBeInTheDocument();
    expect(within(rowOf('Arcade')).getByText('3 members')).toBeInTheDocument();
    // An owner is told apart by the role the row carries, not by a style of its own.
    expect(within(studio).getByText('@grace').closest('li')).toHaveAttribute('data-role', 'owner');
    // The list sits in the admin lists' 600px scroll area.
    expect(screen.getByRole('region', { name: 'Teams' })).toHaveStyle({ height: '600px', overflowY: 'auto' });
  });

  it('shows the first members of a large team, and all of them on asking', async () => {
    renderAdmin({ 'GET /api/admin/teams': () => ({ body: pageOf([bigTeam(MEMBERS_SHOWN + 3)]) }) }, 'teams');
    await screen.findByText('Guild', { exact: true });
    expect(membersOf('Guild')).toHaveLength(MEMBERS_SHOWN);
    expect(within(rowOf('Guild')).getByText(`${MEMBERS_SHOWN + 3} members`)).toBeInTheDocument();

    const more = within(rowOf('Guild')).getByRole('button', { name: ADMIN_TEXT.moreMembersLabel(3, 'Guild') });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(membersOf('Guild')).toHaveLength(MEMBERS_SHOWN + 3);
    expect(membersOf('Guild').at(-1)).toBe(`@player${MEMBERS_SHOWN + 2} Viewer`);

    await userEvent.click(within(rowOf('Guild')).getByRole('button', { name: ADMIN_TEXT.fewerMembersLabel('Guild') }));
    expect(membersOf('Guild')).toHaveLength(MEMBERS_SHOWN);
  });

  it('pages: Next asks for the second page and shows it', async () => {
    const older = adminTeam({ id: 't-old', name: 'Old Guard', createdAt: '2025-12-01T10:00:00.000Z' });
    const { fetch } = renderAdmin(
      {
        'GET /api/admin/teams': (_body, url) =>
          url?.searchParams.get('page') === '2' ? { body: pageOf([older], 51, 2) } : { body: pageOf([STUDIO], 51) },
      },
      'teams',
    );
    await screen.findByText('Studio', { exact: true });
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Old Guard', { exact: true })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Studio', { exact: true })).not.toBeInTheDocument());
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/admin/teams'))).toEqual([
      '/api/admin/teams?page=1&pageSize=50',
      '/api/admin/teams?page=2&pageSize=50',
    ]);
  });

  it("says 'No teams yet' when there are none", async () => {
    renderAdmin({}, 'teams');
    expect(await screen.findByText(ADMIN_TEXT.noTeams)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Teams (0)' })).toBeInTheDocument();
  });

  it('is fetched again every 30 s even while the live socket is up (no event tells an admin of a team)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    useLiveSocketState.setState({ connected: true });
    const { callsTo } = renderAdmin({}, 'teams');
    await screen.findByText(ADMIN_TEXT.noTeams);
    expect(callsTo('GET', '/api/admin/teams')).toHaveLength(1);
    expect(ADMIN_TEAMS_POLL_MS).toBe(30_000);
    await vi.advanceTimersByTimeAsync(ADMIN_TEAMS_POLL_MS);
    await waitFor(() => expect(callsTo('GET', '/api/admin/teams')).toHaveLength(2));
    // The users list, which the socket keeps current, was not polled meanwhile.
    expect(callsTo('GET', '/api/admin/users')).toHaveLength(1);
  });
});

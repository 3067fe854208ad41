import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS, TEAM_PERMISSIONS, type TeamDetails } from '@moonrelay/contract/teams';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam } from '../../../test/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { TeamScreen } from './TeamScreen.tsx';

const ada = {
  userId: 'u1',
  name: 'Ada',
  username: 'ada',
  role: 'developer' as const,
  permissions: [...ROLE_PERMISSIONS.developer],
  joinedAt: '2026-02-02T00:00:00.000Z',
};
const grace = {
  userId: 'u2',
  name: 'Grace',
  username: 'grace',
  role: 'owner' as const,
  permissions: [...TEAM_PERMISSIONS],
  joinedAt: '2026-02-01T00:00:00.000Z',
};
const linus = {
  userId: 'u3',
  name: 'Linus',
  username: 'linus',
  role: 'viewer' as const,
  permissions: [...ROLE_PERMISSIONS.viewer],
  joinedAt: '2026-02-03T00:00:00.000Z',
};

/** Studio as GET /api/teams/t1 answers it to Ada, holding `permissions`. */
function studio(permissions: TeamDetails['permissions'], role: TeamDetails['role']): TeamDetails {
  return {
    id: 't1',
    name: 'Studio',
    personal: false,
    role,
    permissions,
    members: 3,
    createdAt: '2026-02-01T00:00:00.000Z',
    memberList: [grace, { ...ada, role, permissions }, linus],
    invitations: [],
  };
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the Team screen', () => {
  it('lists the members and disables inviting, changing and removing without members.manage, saying why', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/teams/t1': () => ({ body: studio([...ROLE_PERMISSIONS.developer], 'developer') }) }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    const list = await screen.findByRole('list', { name: TEAM_TEXT.membersLabel });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Grace', 'Ada', 'Linus']);
    expect(within(rows[2]!).getByText('Viewer')).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/@linus · Joined/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(TEAM_TEXT.you)).toBeInTheDocument();

    const reason = screen.getByText(/^Needs the permission members\.manage/);
    expect(reason).toBeVisible();
    const invite = screen.getByRole('button', { name: TEAM_TEXT.invite });
    expect(invite).toBeDisabled();
    expect(invite).toHaveAccessibleDescription(/Needs the permission members\.manage/);
    const change = screen.getByRole('button', { name: TEAM_TEXT.changeAccessLabel('Linus') });
    const remove = screen.getByRole('button', { name: TEAM_TEXT.removeLabel('Linus') });
    expect(change).toBeDisabled();
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(/Needs the permission members\.manage/);
    // Anyone can leave.
    expect(screen.getByRole('button', { name: TEAM_TEXT.leave })).toBeEnabled();
    expect(screen.getByText(TEAM_TEXT.invitationsHidden)).toBeInTheDocument();
  });

  it('lets an admin change and remove members below them, but not the owner', async () => {
    const admin = ROLE_PERMISSIONS.admin;
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/teams/t1': () => ({ body: studio([...admin], 'admin') }) }));
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    expect(await screen.findByRole('button', { name: TEAM_TEXT.removeLabel('Linus') })).toBeEnabled();
    expect(screen.getByRole('button', { name: TEAM_TEXT.invite })).toBeEnabled();
    expect(screen.queryByText(/^Needs the permission members\.manage/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: TEAM_TEXT.removeLabel('Grace') })).toBeDisabled();
  });

  it('shows a new invitation link once, with a copy button', async () => {
    const sent: unknown[] = [];
    let invitations: TeamDetails['invitations'] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/t1': () => ({ body: { ...studio([...TEAM_PERMISSIONS], 'owner'), invitations } }),
        'POST /api/teams/t1/invitations': (body) => {
          sent.push(body);
          const invitation = {
            id: 'i1',
            role: 'moderator' as const,
            permissions: [...ROLE_PERMISSIONS.moderator],
            createdBy: 'u1',
            createdAt: '2026-11-29T12:00:00.000Z',
            expiresAt: '2026-12-02T12:00:00.000Z',
          };
          invitations = [invitation];
          return { body: { ...invitation, token: 'secret-token' } };
        },
      }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.invite }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText(TEAM_TEXT.roleLabel), 'moderator');
    await userEvent.click(within(dialog).getByRole('button', { name: TEAM_TEXT.makeLink }));

    const link = await within(dialog).findByRole('textbox', { name: TEAM_TEXT.linkLabel });
    expect(link).toHaveValue(`${location.origin}/join?token=secret-token`);
    // The form and its button are gone: the focus is on the link, which says what it gives.
    await waitFor(() => expect(link).toHaveFocus());
    const gives = TEAM_TEXT.linkGives('Moderator', formatDateTime('2026-12-02T12:00:00.000Z'));
    expect(within(dialog).getByText(gives)).toBeInTheDocument();
    expect(link).toHaveAccessibleDescription(expect.stringContaining(gives));
    expect(within(dialog).getByRole('button', { name: TEAM_TEXT.copyLink })).toBeInTheDocument();
    expect(sent).toEqual([{ role: 'moderator' }]);

    await userEvent.click(within(dialog).getByRole('button', { name: TEAM_TEXT.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The open invitation is listed, without its link.
    expect(await screen.findByRole('button', { name: /^Revoke the Moderator invitation/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: TEAM_TEXT.invite }));
    const again = await screen.findByRole('dialog');
    expect(within(again).getByRole('button', { name: TEAM_TEXT.makeLink })).toBeInTheDocument();
    expect(within(again).queryByRole('textbox', { name: TEAM_TEXT.linkLabel })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(/secret-token/)).not.toBeInTheDocument();
  });

  it('invites with permissions ticked one by one, offering only those the inviter holds', async () => {
    const sent: unknown[] = [];
    // No preset fits inside what this member holds: the form starts on permissions one by one.
    const held = ['players.read' as const, 'players.kick' as const, 'members.manage' as const];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/t1': () => ({ body: studio(held, 'custom') }),
        'POST /api/teams/t1/invitations': (body) => {
          sent.push(body);
          return { status: 403, body: { error: 'You can only give permissions you hold yourself' } };
        },
      }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.invite }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByLabelText(TEAM_TEXT.roleLabel);
    expect(within(role).getByRole('option', { name: /^Admin/ })).toBeDisabled();
    expect(role).toHaveValue('custom');
    expect(within(dialog).getByRole('checkbox', { name: /scripts\.write/ })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /players\.kick/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: TEAM_TEXT.makeLink }));
    // The server's own words when it refuses.
    expect(await within(dialog).findByText('You can only give permissions you hold yourself')).toBeInTheDocument();
    expect(sent).toEqual([{ permissions: ['players.kick'] }]);
  });

  it('keeps the keyboard in place when a removed member or a revoked invitation takes its button away', async () => {
    let members = [grace, { ...ada, role: 'owner' as const, permissions: [...TEAM_PERMISSIONS] }, linus];
    let invitations: TeamDetails['invitations'] = [
      {
        id: 'i1',
        role: 'viewer',
        permissions: [...ROLE_PERMISSIONS.viewer],
        createdBy: 'u1',
        createdAt: '2026-11-29T12:00:00.000Z',
        expiresAt: '2026-12-02T12:00:00.000Z',
      },
    ];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/t1': () => ({
          body: { ...studio([...TEAM_PERMISSIONS], 'owner'), memberList: members, invitations },
        }),
        'DELETE /api/teams/t1/members/u3': () => {
          members = members.filter((member) => member.userId !== 'u3');
          return { body: { success: true } };
        },
        'DELETE /api/teams/t1/invitations/i1': () => {
          invitations = [];
          return { body: { success: true } };
        },
      }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    await userEvent.click(await screen.findByRole('button', { name: TEAM_TEXT.removeLabel('Linus') }));
    const confirm = await screen.findByRole('alertdialog', { name: TEAM_TEXT.removeTitle('Linus') });
    await userEvent.click(within(confirm).getByRole('button', { name: TEAM_TEXT.remove }));
    const list = screen.getByRole('list', { name: TEAM_TEXT.membersLabel });
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Linus' })).not.toBeInTheDocument());
    await waitFor(() => expect(list).toHaveFocus());

    await userEvent.click(screen.getByRole('button', { name: /^Revoke the Viewer invitation/ }));
    await waitFor(() => expect(screen.getByText(TEAM_TEXT.invitationsEmpty)).toHaveFocus());
  });

  it('keeps the only owner from leaving, saying why, and lets them delete the team instead', async () => {
    const deleted: string[] = [];
    const alone: TeamDetails = {
      ...studio([...TEAM_PERMISSIONS], 'owner'),
      members: 2,
      memberList: [{ ...ada, role: 'owner', permissions: [...TEAM_PERMISSIONS] }, linus],
    };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams/t1': () => ({ body: alone }),
        'GET /api/teams': () => ({ body: [] }),
        'DELETE /api/teams/t1': () => {
          deleted.push('t1');
          return { body: { success: true } };
        },
      }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });

    const leave = await screen.findByRole('button', { name: TEAM_TEXT.leave });
    expect(leave).toBeDisabled();
    expect(leave).toHaveAccessibleDescription(TEAM_TEXT.lastOwner);
    await userEvent.click(screen.getByRole('button', { name: TEAM_TEXT.deleteTeam }));
    const confirm = await screen.findByRole('alertdialog', { name: TEAM_TEXT.deleteTitle('Studio') });
    expect(within(confirm).getByText(TEAM_TEXT.deleteBody)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: TEAM_TEXT.deleteTeam }));
    expect(await screen.findByText(TEAM_TEXT.deleted('Studio'))).toBeInTheDocument();
    expect(deleted).toEqual(['t1']);
  });

  it('offers deleting the team only to a member holding team.delete', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/teams/t1': () => ({ body: studio([...ROLE_PERMISSIONS.admin], 'admin') }) }),
    );
    chooseTeam('t1');
    renderWithProviders(<TeamScreen />, { route: '/team?team=t1' });
    expect(await screen.findByRole('button', { name: TEAM_TEXT.leave })).toBeEnabled();
    expect(screen.queryByRole('button', { name: TEAM_TEXT.deleteTeam })).not.toBeInTheDocument();
  });

  it('explains the personal team and offers to create a team instead of a members list', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    renderWithProviders(<TeamScreen />, { route: '/team' });
    expect(await screen.findByText(TEAM_TEXT.personalExplanation)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: TEAM_TEXT.membersLabel })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: TEAM_TEXT.createTeam }));
    expect(await screen.findByRole('dialog', { name: TEAM_TEXT.createTitle })).toBeInTheDocument();
  });
});

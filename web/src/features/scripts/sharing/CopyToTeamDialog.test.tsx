import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { SHARE_ERRORS } from '@moonrelay/contract/shares';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testScript } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { SHARE_TEXT } from './share-text.ts';
import { CopyToTeamDialog } from './CopyToTeamDialog.tsx';

const FLY = testScript({ id: 's1', name: 'Fly' });

/** Ada's teams: her own account, and four teams where her role differs. */
const TEAMS = [
  personalTeam(),
  testTeam({ id: 't1', name: 'Studio' }),
  testTeam({ id: 't2', name: 'Arcade', role: 'admin', permissions: [...ROLE_PERMISSIONS.admin] }),
  testTeam({ id: 't3', name: 'Mods', role: 'moderator', permissions: [...ROLE_PERMISSIONS.moderator] }),
  testTeam({ id: 't4', name: 'Watchers', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] }),
];

/** The copies asked for, by body; a copy into `refused` is refused as the server does. */
function copyServer(refused?: string) {
  const copies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/teams': () => ({ body: TEAMS }),
      'POST /api/scripts/s1/copy': (body) => {
        copies.push(body);
        if ((body as { teamId: string }).teamId === refused) {
          return { status: 403, body: { error: SHARE_ERRORS.targetTeam } };
        }
        return { body: testScript({ id: 's9', name: 'Fly', userId: (body as { teamId: string }).teamId }) };
      },
    }),
  );
  return copies;
}

const openDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: SHARE_TEXT.copyToTeam }));
  return screen.findByRole('dialog', { name: SHARE_TEXT.copyTitle });
};
const choices = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('option')
    .map((option) => option.textContent);

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe("the editor's Copy to team", () => {
  it('offers only the other teams where the person may add scripts, and copies into the one chosen', async () => {
    const copies = copyServer();
    renderWithProviders(<CopyToTeamDialog script={FLY} />);
    const dialog = await openDialog();
    await within(dialog).findByRole('combobox', { name: SHARE_TEXT.team });
    // Not their own account (the script is there already), not where they moderate or only view.
    expect(choices(dialog)).toEqual(['Studio', 'Arcade']);

    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: SHARE_TEXT.team }), 'Arcade');
    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.copy }));
    expect(await screen.findByText(SHARE_TEXT.copiedDetail('Fly', 'Arcade'))).toBeInTheDocument();
    expect(screen.getByText(SHARE_TEXT.copied)).toBeInTheDocument();
    expect(copies).toEqual([{ teamId: 't2' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("from a team, offers the person's own account and the other teams, not the one on screen", async () => {
    copyServer();
    chooseTeam('t1');
    renderWithProviders(<CopyToTeamDialog script={FLY} />);
    const dialog = await openDialog();
    await within(dialog).findByRole('combobox', { name: SHARE_TEXT.team });
    expect(choices(dialog)).toEqual(['Ada', 'Arcade']);
  });

  it("shows the server's refusal of a copy in the dialog, which stays open", async () => {
    const copies = copyServer('t1');
    chooseTeam('t2');
    renderWithProviders(<CopyToTeamDialog script={FLY} />);
    const dialog = await openDialog();
    const team = await within(dialog).findByRole('combobox', { name: SHARE_TEXT.team });
    expect(choices(dialog)).toEqual(['Ada', 'Studio']);
    // The role in Studio changed since the list was read: the server refuses.
    await userEvent.selectOptions(team, 'Studio');
    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.copy }));
    expect(await within(dialog).findByText(SHARE_ERRORS.targetTeam)).toBeInTheDocument();
    expect(copies).toEqual([{ teamId: 't1' }]);
    expect(screen.queryByText(SHARE_TEXT.copied)).not.toBeInTheDocument();
  });

  it('says so when the person has no other team where they may add scripts', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams': () => ({
          body: [personalTeam(), testTeam({ role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] })],
        }),
      }),
    );
    renderWithProviders(<CopyToTeamDialog script={FLY} />);
    const dialog = await openDialog();
    expect(await within(dialog).findByText(SHARE_TEXT.noTargets)).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: SHARE_TEXT.copy })).toBeDisabled();
  });
});

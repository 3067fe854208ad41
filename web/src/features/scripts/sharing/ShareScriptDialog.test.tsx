import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreatedScriptShare, ScriptShare } from '@moonrelay/contract/shares';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testScript } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { SHARE_TEXT } from './share-text.ts';
import { ShareScriptDialog } from './ShareScriptDialog.tsx';

const FLY = testScript({ id: 's1', name: 'Fly' });

function share(overrides: Partial<ScriptShare> = {}): ScriptShare {
  return {
    id: 'sh-old',
    scriptId: FLY.id,
    scriptName: FLY.name,
    createdAt: '2026-03-01T12:00:00.000Z',
    createdBy: 'grace',
    ...overrides,
  };
}

const OLD = share();
/** Another script's link: the team's list has it, the dialog of Fly does not. */
const HEAL = share({ id: 'sh-heal', scriptId: 's2', scriptName: 'Heal' });
const NEW_AT = '2026-03-05T09:30:00.000Z';

/**
 * The team's links as the server keeps them: a new one is listed from then on (its token only in
 * the answer that made it), a stopped one no longer. Every call is recorded.
 */
function shareServer() {
  let shares = [OLD, HEAL];
  const calls: string[] = [];
  const stop = (id: string) => () => {
    shares = shares.filter((listed) => listed.id !== id);
    return { body: { success: true } };
  };
  const respond = jsonFetch({
    'GET /api/shares': () => ({ body: { items: shares } }),
    'POST /api/scripts/s1/shares': () => {
      const created: CreatedScriptShare = {
        ...share({ id: 'sh-new', createdAt: NEW_AT, createdBy: 'ada' }),
        token: 'tok-new',
      };
      const { token: _token, ...listed } = created;
      shares = [listed, ...shares];
      return { body: created };
    },
    'DELETE /api/shares/sh-old': stop('sh-old'),
    'DELETE /api/shares/sh-new': stop('sh-new'),
    'GET /api/teams': () => ({
      body: [
        personalTeam(),
        testTeam({ id: 't1', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] }),
        testTeam({ id: 't2', name: 'Arcade' }),
      ],
    }),
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
    return respond(input, init);
  });
  return calls;
}

const openDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: SHARE_TEXT.share }));
  return screen.findByRole('dialog', { name: SHARE_TEXT.shareTitle });
};
/** Stop sharing asks first: confirms it in its own dialog. */
const confirmStop = async () => {
  const confirm = await screen.findByRole('alertdialog', { name: SHARE_TEXT.stopTitle });
  await userEvent.click(within(confirm).getByRole('button', { name: SHARE_TEXT.stop }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
};
const rowsIn = (dialog: HTMLElement) => within(dialog).queryAllByTestId('share-row');
const stopButton = (dialog: HTMLElement, createdAt: string) =>
  within(dialog).getByRole('button', { name: SHARE_TEXT.stopLabel(FLY.name, formatDateTime(createdAt)) });

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
});

describe("the editor's Share dialog", () => {
  it("makes a link shown once, with a copy button, and lists the script's links", async () => {
    const calls = shareServer();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ShareScriptDialog script={FLY} />);

    let dialog = await openDialog();
    // Only this script's link, with who made it.
    await waitFor(() => expect(rowsIn(dialog)).toHaveLength(1));
    expect(within(rowsIn(dialog)[0]!).getByText('grace')).toBeInTheDocument();
    expect(within(dialog).queryByText('Heal')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: SHARE_TEXT.linkLabel })).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.makeLink }));
    const link = await within(dialog).findByRole('textbox', { name: SHARE_TEXT.linkLabel });
    expect(link).toHaveValue(`${location.origin}/shared/tok-new`);
    expect(link).toHaveFocus();
    expect(link).toHaveAccessibleDescription(SHARE_TEXT.linkShownOnce);
    await waitFor(() => expect(rowsIn(dialog)).toHaveLength(2));
    expect(calls.filter((call) => call === 'POST /api/scripts/s1/shares')).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.copyLink }));
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/shared/tok-new`);
    expect(await screen.findByText(SHARE_TEXT.linkCopied)).toBeInTheDocument();

    // Closed and opened again: the link is listed, but its address is gone for good.
    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await openDialog();
    await waitFor(() => expect(rowsIn(dialog)).toHaveLength(2));
    expect(within(dialog).queryByRole('textbox', { name: SHARE_TEXT.linkLabel })).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/tok-new/)).not.toBeInTheDocument();
  });

  it('stops sharing a link: its row goes, and the link just made is no longer offered once stopped', async () => {
    const calls = shareServer();
    renderWithProviders(<ShareScriptDialog script={FLY} />);
    const dialog = await openDialog();
    await waitFor(() => expect(rowsIn(dialog)).toHaveLength(1));

    await userEvent.click(stopButton(dialog, OLD.createdAt));
    await confirmStop();
    expect(await screen.findByText(SHARE_TEXT.stoppedDetail(FLY.name))).toBeInTheDocument();
    expect(await within(dialog).findByText(SHARE_TEXT.noScriptLinks)).toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/shares/sh-old']);

    await userEvent.click(within(dialog).getByRole('button', { name: SHARE_TEXT.makeLink }));
    expect(await within(dialog).findByRole('textbox', { name: SHARE_TEXT.linkLabel })).toBeInTheDocument();
    await userEvent.click(await within(dialog).findByRole('button', { name: /^Stop sharing Fly/ }));
    await confirmStop();
    await waitFor(() =>
      expect(within(dialog).queryByRole('textbox', { name: SHARE_TEXT.linkLabel })).not.toBeInTheDocument(),
    );
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([
      'DELETE /api/shares/sh-old',
      'DELETE /api/shares/sh-new',
    ]);
  });

  it('is disabled for a member whose role may not change scripts, saying why; open to one whose role may', async () => {
    const calls = shareServer();
    chooseTeam('t1');
    const { unmount } = renderWithProviders(<ShareScriptDialog script={FLY} />);
    await waitFor(() => expect(calls).toContain('GET /api/teams'));
    const share = screen.getByRole('button', { name: SHARE_TEXT.share });
    expect(share).toBeDisabled();
    expect(share).toHaveAttribute('title', 'Needs the permission scripts.write');
    unmount();

    chooseTeam('t2');
    renderWithProviders(<ShareScriptDialog script={FLY} />);
    await waitFor(() => expect(screen.getByRole('button', { name: SHARE_TEXT.share })).toBeEnabled());
    expect(screen.getByRole('button', { name: SHARE_TEXT.share })).not.toHaveAttribute('title');
  });
});

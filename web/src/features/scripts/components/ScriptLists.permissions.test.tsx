import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS, type TeamPermission } from '@moonrelay/contract/teams';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { MyScripts } from './MyScripts.tsx';
import { RecentScripts } from './RecentScripts.tsx';
import { ScriptStats } from './ScriptStats.tsx';
import { SCRIPT_ROW_HEIGHT } from './ScriptsTable.tsx';
import { layOutScripts, makeScript, scriptPages, signIn } from './test-scripts.ts';

const SCRIPTS = [makeScript({ id: 's1', name: 'Fly' })];

/** `ui` for a person holding `permissions` in Studio (chosen unless `personal`). */
function renderAs(ui: ReactElement, permissions: readonly TeamPermission[], { personal = false } = {}) {
  const api = teamApi(permissions, {
    // My Scripts pages its list; the dashboard's cards read the whole list.
    'GET /api/scripts/page': scriptPages(() => SCRIPTS),
    'GET /api/scripts': () => ({ body: SCRIPTS }),
  });
  if (!personal) chooseTeam('t1');
  renderWithProviders(ui);
  return api;
}

const rowOf = (name: string) => {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};

let layout: ReturnType<typeof layOutScripts> = [];
beforeEach(() => {
  signIn();
  layout = layOutScripts({ view: 15 * SCRIPT_ROW_HEIGHT });
});
afterEach(() => {
  for (const spy of layout) spy.mockRestore();
  vi.unstubAllGlobals();
});

describe("the script lists: what a team member's role allows", () => {
  it('does not ask a moderator for the scripts: My Scripts says why, New Script is disabled', async () => {
    const { calls } = renderAs(<MyScripts />, ROLE_PERMISSIONS.moderator);
    expect(await screen.findByText('See the scripts: Needs the permission scripts.read')).toBeInTheDocument();
    expect(screen.getByText('New Script: Needs the permission scripts.write')).toBeInTheDocument();
    expect(screen.queryByText('Loading scripts...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /New Script/ })).toBeDisabled();
    expect(screen.queryByRole('link', { name: /New Script/ })).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls).not.toContain('GET /api/scripts/page');
    expect(calls).not.toContain('GET /api/scripts');
  });

  it('lists them for a viewer with Execute, Duplicate and Delete disabled, each saying why', async () => {
    const { calls } = renderAs(<MyScripts />, ROLE_PERMISSIONS.viewer);
    const fly = await screen.findByText('Fly').then(() => rowOf('Fly'));
    expect(within(fly).getByRole('button', { name: 'Execute' })).toBeDisabled();
    expect(within(fly).getByRole('button', { name: 'Execute' })).toHaveAttribute(
      'title',
      'Needs the permission runs.sandbox',
    );
    expect(within(fly).getByRole('button', { name: 'Duplicate' })).toBeDisabled();
    expect(within(fly).getByRole('button', { name: 'Delete' })).toBeDisabled();
    // Reading is theirs: Edit opens the script.
    expect(within(fly).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/editor?id=s1');
    expect(
      screen.getByText('New Script, Duplicate and Delete: Needs the permission scripts.write'),
    ).toBeInTheDocument();
    expect(screen.getByText('Execute in the game: Needs the permission runs.sandbox')).toBeInTheDocument();
    expect(calls.filter((call) => !call.startsWith('GET'))).toEqual([]);
    // The screen asks for its page of summaries, not every script with its code.
    expect(calls).toContain('GET /api/scripts/page');
    expect(calls).not.toContain('GET /api/scripts');
  });

  it("says why on the dashboard's cards too, asking nothing", async () => {
    const { calls } = renderAs(
      <>
        <ScriptStats />
        <RecentScripts />
      </>,
      ROLE_PERMISSIONS.moderator,
    );
    const recent = screen.getByRole('region', { name: 'Recent Scripts' });
    expect(await within(recent).findByText('See the scripts: Needs the permission scripts.read')).toBeInTheDocument();
    expect(within(recent).queryByText('Loading scripts...')).not.toBeInTheDocument();
    expect(calls).not.toContain('GET /api/scripts');
  });

  it('offers everything on the person’s own account', async () => {
    renderAs(<MyScripts />, ROLE_PERMISSIONS.moderator, { personal: true });
    const fly = await screen.findByText('Fly').then(() => rowOf('Fly'));
    expect(within(fly).getByRole('button', { name: 'Execute' })).toBeEnabled();
    expect(within(fly).getByRole('button', { name: 'Duplicate' })).toBeEnabled();
    expect(within(fly).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(screen.getByRole('link', { name: /New Script/ })).toHaveAttribute('href', '/editor');
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

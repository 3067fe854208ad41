import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { ScriptEditorScreen } from './ScriptEditorScreen.tsx';
import { storedScript } from './test-fixtures.ts';

// Ace cannot be driven in jsdom: a textarea stands in for it, as in ScriptEditorScreen.test.tsx.
vi.mock('./LuaCodeEditor.tsx', async () => {
  const { createElement } = await import('react');
  return {
    LuaCodeEditor: (props: { value: string }) =>
      createElement('textarea', { 'aria-label': 'Code', value: props.value, readOnly: true }),
  };
});

const routes = {
  'GET /api/scripts': () => ({ body: [storedScript({ id: 's1', name: 'Fly' })] }),
  'POST /api/lua/check': () => ({ body: { ok: true, diagnostics: [] } }),
};

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("ScriptEditorScreen: what a team member's role allows", () => {
  it('does not ask a moderator for the scripts to open one, and says why', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator, routes);
    chooseTeam('t1');
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s1' });
    expect(await screen.findByText('See the scripts: Needs the permission scripts.read')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading script')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls).not.toContain('GET /api/scripts');
  });

  it('opens the script on the person’s own account', async () => {
    teamApi(ROLE_PERMISSIONS.moderator, routes);
    renderWithProviders(<ScriptEditorScreen />, { route: '/editor?id=s1' });
    expect(await screen.findByLabelText('Script Name')).toHaveValue('Fly');
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScriptVersion, ScriptVersionSummary } from '@moonrelay/contract/script-versions';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs, testScript } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { ScriptHistory } from './ScriptHistory.tsx';

const summary = (number: number, current = false): ScriptVersionSummary => ({
  number,
  name: 'Fly',
  savedBy: 'Ada',
  savedVia: 'session',
  savedByKey: null,
  restoredFrom: null,
  codeBytes: 10,
  lines: 1,
  current,
  createdAt: '2026-11-01T10:00:00.000Z',
});
const version = (number: number): ScriptVersion => ({
  ...summary(number, number === 2),
  scriptId: 's1',
  description: null,
  code: `print(${number})`,
  isAutoExecute: false,
  isPublic: false,
  gameId: null,
  gameName: null,
  gameImageUrl: null,
  autoExecuteGames: null,
});

const routes = {
  'GET /api/scripts/s1/versions': () => ({
    body: { scriptId: 's1', current: 2, items: [summary(2, true), summary(1)] },
  }),
  'GET /api/scripts/s1/versions/1': () => ({ body: version(1) }),
  'GET /api/scripts/s1/versions/2': () => ({ body: version(2) }),
};

const renderHistory = async () => {
  renderWithProviders(
    <ScriptHistory script={testScript({ id: 's1', version: 2 })} dirty={false} onRestored={vi.fn()} />,
  );
  await userEvent.click(screen.getByRole('button', { name: /History/ }));
  return within(await screen.findByTestId('version-1'));
};

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("ScriptHistory: what a team member's role allows", () => {
  it('lets a viewer compare versions but not restore one, saying it needs scripts.write', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.viewer, routes);
    chooseTeam('t1');
    const row = await renderHistory();
    expect(row.getByRole('button', { name: 'Restore version 1' })).toBeDisabled();
    expect(row.getByRole('button', { name: 'Compare version 1 with the current version' })).toBeEnabled();
    expect(await screen.findByText('Restore a version: Needs the permission scripts.write')).toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('offers Restore on the person’s own account', async () => {
    teamApi(ROLE_PERMISSIONS.viewer, routes);
    const row = await renderHistory();
    expect(row.getByRole('button', { name: 'Restore version 1' })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

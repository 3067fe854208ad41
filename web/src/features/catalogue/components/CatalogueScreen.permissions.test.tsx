import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { CatalogueScreen } from './CatalogueScreen.tsx';

const FLY: CatalogueScript = {
  _id: 'id1',
  title: 'Fly',
  game: { _id: '2753915549', name: 'Blox Fruits', imageUrl: null, universeId: null },
  image: null,
  views: 10,
  verified: false,
  isUniversal: false,
  isPatched: false,
  keySystem: false,
  createdAt: '2026-03-01T12:00:00.000Z',
  executorFunctions: [],
};
const routes = {
  'GET /api/scriptblox/fetch': () => ({ body: { result: { scripts: [FLY], totalPages: 1, nextPage: null } } }),
};

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("CatalogueScreen: what a team member's role allows", () => {
  it('lets a moderator browse but not execute nor save, saying which permission each needs', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator, routes);
    chooseTeam('t1');
    renderWithProviders(<CatalogueScreen />);
    const fly = within(await screen.findByRole('article', { name: 'Fly' }));
    expect(fly.getByRole('button', { name: /Execute/ })).toBeDisabled();
    expect(fly.getByRole('button', { name: /Save/ })).toBeDisabled();
    expect(fly.getByRole('button', { name: /Save/ })).toHaveAttribute('title', 'Needs the permission scripts.write');
    expect(fly.getByRole('button', { name: /Preview/ })).toBeEnabled();
    expect(screen.getByText('Save to the scripts: Needs the permission scripts.write')).toBeInTheDocument();
    expect(screen.getByText('Execute in the game: Needs the permission runs.sandbox')).toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('offers both on the person’s own account', async () => {
    teamApi(ROLE_PERMISSIONS.moderator, routes);
    renderWithProviders(<CatalogueScreen />);
    const fly = within(await screen.findByRole('article', { name: 'Fly' }));
    expect(fly.getByRole('button', { name: /Execute/ })).toBeEnabled();
    expect(fly.getByRole('button', { name: /Save/ })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

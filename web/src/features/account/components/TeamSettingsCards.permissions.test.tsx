import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS, type TeamPermission } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { ApiAccessCard } from './ApiAccessCard.tsx';
import { ApiKeyCard } from './ApiKeyCard.tsx';
import { ApiKeysCard } from './ApiKeysCard.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';
import { OpenCloudCard } from './OpenCloudCard.tsx';

/** The endpoints behind the team's Settings cards, each refused without its permission. */
const TEAM_READS = ['GET /api/user/api-keys', 'GET /api/notifications/destinations', 'GET /api/open-cloud/key'];

/** Settings' team cards for a person holding `permissions` in Studio (chosen unless `personal`). */
function renderCards(permissions: readonly TeamPermission[], { personal = false } = {}) {
  const api = teamApi(permissions, {
    'GET /api/user/api-keys': () => ({ body: { items: [], limit: 25 } }),
    'GET /api/notifications/destinations': () => ({ body: { destinations: [], limit: 10 } }),
    'GET /api/open-cloud/key': () => ({ body: { key: null } }),
  });
  if (!personal) chooseTeam('t1');
  renderWithProviders(
    <>
      <ApiAccessCard />
      <ApiKeyCard apiKey="mr_x" />
      <ApiKeysCard />
      <NotificationsCard />
      <OpenCloudCard />
    </>,
  );
  return api;
}

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("Settings' team cards: what a member's role allows", () => {
  it('asks nothing of a moderator’s cards, naming the permission each needs, with no action', async () => {
    const { calls } = renderCards(ROLE_PERMISSIONS.moderator);
    expect(
      await screen.findByText('See, create and revoke API keys: Needs the permission keys.manage'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('See and manage notification destinations: Needs the permission notifications.manage'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('See, set and remove the Open Cloud key: Needs the permission opencloud.manage'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Create API key/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add destination/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Open Cloud key' })).not.toBeInTheDocument();
    // The personal key's cards stay, with Regenerate disabled and saying why (twice: one card each).
    expect(screen.getAllByText('Regenerate the API key: Needs the permission keys.manage')).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Regenerate API Key/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Regenerate$/ })).toBeDisabled();
    expect(calls).toContain('GET /api/teams');
    expect(calls.filter((call) => TEAM_READS.includes(call))).toEqual([]);
  });

  it('reads only what a developer’s role allows: the keys, not notifications nor Open Cloud', async () => {
    const { calls } = renderCards(ROLE_PERMISSIONS.developer);
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Create API key/ })).toBeEnabled();
    expect(screen.getByRole('button', { name: /Regenerate API Key/ })).toBeEnabled();
    expect(
      screen.getByText('See and manage notification destinations: Needs the permission notifications.manage'),
    ).toBeInTheDocument();
    expect(calls).toContain('GET /api/user/api-keys');
    expect(calls).not.toContain('GET /api/notifications/destinations');
    expect(calls).not.toContain('GET /api/open-cloud/key');
  });

  it('reads and offers everything on the person’s own account', async () => {
    const { calls } = renderCards(ROLE_PERMISSIONS.moderator, { personal: true });
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    expect(await screen.findByText('No destinations yet.')).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: 'Open Cloud key' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Create API key/ })).toBeEnabled();
    expect(screen.getByRole('button', { name: /Add destination/ })).toBeEnabled();
    expect(screen.getByRole('button', { name: /Regenerate API Key/ })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
    expect(TEAM_READS.every((read) => calls.includes(read))).toBe(true);
  });
});

import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { signInAs } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, teamApi } from '../../../test/teams.ts';
import { AnalyticsScreen } from './AnalyticsScreen.tsx';
import { standInResizeObserver } from '../../../test/resize-observer.ts';

// The period picker and recharts size themselves with ResizeObserver, which jsdom lacks.
standInResizeObserver();

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe("AnalyticsScreen: what a team member's role allows", () => {
  it('asks for no numbers where the role may not read the scripts, says why and offers no Refresh', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator);
    chooseTeam('t1');
    renderWithProviders(<AnalyticsScreen />);
    expect(await screen.findByText('See the analytics: Needs the permission scripts.read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Refresh/ })).toBeDisabled();
    expect(screen.queryByText('Analytics could not be loaded.')).not.toBeInTheDocument();
    expect(calls).toContain('GET /api/teams');
    expect(calls.filter((call) => call.startsWith('GET /api/analytics'))).toEqual([]);
  });

  it('asks for them on the person’s own account', async () => {
    const { calls } = teamApi(ROLE_PERMISSIONS.moderator);
    renderWithProviders(<AnalyticsScreen />);
    await vi.waitFor(() => expect(calls).toContain('GET /api/analytics/usage'));
    expect(calls).toContain('GET /api/analytics/scripts');
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

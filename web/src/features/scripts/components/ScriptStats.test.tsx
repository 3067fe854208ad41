import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ScriptStats } from './ScriptStats.tsx';
import { makeScript, signIn } from './test-scripts.ts';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

/** The value shown under a stat's label. */
function statValue(label: string): string | null | undefined {
  return screen.getByText(label).closest('dl')?.querySelector('dd')?.textContent;
}

describe('ScriptStats', () => {
  it('counts scripts, sums executions and counts auto-execute scripts', async () => {
    const scripts = [
      makeScript({ id: 's1', name: 'Fly', executionCount: 12, isAutoExecute: true }),
      makeScript({ id: 's2', name: 'Speed', executionCount: 1500 }),
      makeScript({ id: 's3', name: 'Teleport', executionCount: 0, isAutoExecute: true }),
      makeScript({ id: 's4', name: 'Heal', executionCount: 3 }),
    ];
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/scripts': () => ({ body: scripts }) }));
    renderWithProviders(<ScriptStats />);

    expect(await screen.findByText('1,515')).toBeInTheDocument();
    expect(statValue('Total Scripts')).toBe('4');
    expect(statValue('Total Executions')).toBe('1,515');
    expect(statValue('Auto-Execute')).toBe('2');
  });

  it('says Total Executions counts the saved scripts’ runs, and links to Runs for every run', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/scripts': () => ({ body: [makeScript({ id: 's1', name: 'Fly', executionCount: 0 })] }) }),
    );
    renderWithProviders(<ScriptStats />);
    await waitFor(() => expect(statValue('Total Scripts')).toBe('1'));
    // The hint is beside the value, not part of what a reader or a test takes as the value.
    expect(statValue('Total Executions')).toBe('0');
    expect(screen.getByTestId('stat-hint')).toHaveTextContent(
      'Runs of your saved scripts, all time. Every run, custom code included, is on the Runs page.',
    );
    expect(screen.getByRole('link', { name: 'Runs page' })).toHaveAttribute('href', '/runs');
  });

  it('shows a dash, not a zero, while the list loads', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    renderWithProviders(<ScriptStats />);
    for (const label of ['Total Scripts', 'Total Executions', 'Auto-Execute']) expect(statValue(label)).toBe('—');
  });
});

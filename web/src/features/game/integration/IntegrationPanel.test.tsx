import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { IntegrationPanel } from './IntegrationPanel.tsx';

const SCRIPTS = {
  quickLoader:
    'loadstring(game:GetService("HttpService"):GetAsync("https://moonrelay.games/api/game/loader?key=mr_x"))()',
  gameIntegration: '-- Moonrelay game integration\nlocal KEY = "mr_x"\n',
  teleportExample: '-- Dashboard teleport example\nlocal locations = { spawn = Vector3.new(0, 50, 0) }\n',
  reachability: { reachable: true, address: 'https://moonrelay.games', https: true },
};

/** jsdom's Blob has no text(): read it the older way. */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

const card = (name: string) => screen.getByRole('region', { name });

beforeEach(() => {
  signInAs();
  vi.stubGlobal('fetch', jsonFetch({ 'GET /api/game/integration-scripts': () => ({ body: SCRIPTS }) }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('IntegrationPanel', () => {
  it('shows the three scripts read-only', async () => {
    renderWithProviders(<IntegrationPanel />);
    await screen.findByRole('region', { name: 'Quick Loader' });
    expect(within(card('Quick Loader')).getByTestId('integration-script')).toHaveTextContent(SCRIPTS.quickLoader);
    expect(within(card('Full Game Integration Script')).getByTestId('integration-script')).toHaveTextContent(
      'local KEY = "mr_x"',
    );
    expect(within(card('Dashboard Teleport Script')).getByTestId('integration-script')).toHaveTextContent(
      'Dashboard teleport example',
    );
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it("copies a script and toasts 'Copied!'", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<IntegrationPanel />);
    await screen.findByRole('region', { name: 'Quick Loader' });
    await userEvent.click(within(card('Full Game Integration Script')).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(SCRIPTS.gameIntegration);
    expect(within(await screen.findByTestId('toast')).getByText('Copied!')).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  });

  it.each([
    ['Quick Loader', 'quick-loader.txt', SCRIPTS.quickLoader],
    ['Full Game Integration Script', 'game-integration.txt', SCRIPTS.gameIntegration],
    ['Dashboard Teleport Script', 'teleport-example.txt', SCRIPTS.teleportExample],
  ])("downloads the %s as %s and toasts 'Downloaded!'", async (title, fileName, script) => {
    const blobs: Blob[] = [];
    // jsdom has no object URLs: these stand in, keeping the Blob that was saved.
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:moonrelay/1';
      },
      revokeObjectURL: () => {},
    });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithProviders(<IntegrationPanel />);
    await screen.findByRole('region', { name: title });
    await userEvent.click(within(card(title)).getByRole('button', { name: 'Download' }));

    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe(fileName);
    expect(clicked[0]!.href).toBe('blob:moonrelay/1');
    expect(blobs[0]!.type).toBe('text/plain;charset=utf-8');
    expect(await textOf(blobs[0]!)).toBe(script);
    expect(within(await screen.findByTestId('toast')).getByText('Downloaded!')).toBeInTheDocument();
  });

  it('says so when the scripts cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/game/integration-scripts': () => ({ status: 500, body: { error: 'Internal server error' } }),
      }),
    );
    renderWithProviders(<IntegrationPanel />);
    expect(await screen.findByText('Internal server error')).toBeInTheDocument();
  });
});

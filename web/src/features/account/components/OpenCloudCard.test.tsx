import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOUD_RUN_ERRORS, type SaveCloudPlaceRequest } from '@moonrelay/contract/cloud-runs';
import type { OpenCloudKey } from '@moonrelay/contract/open-cloud';
import { cloudPlaceQuery } from '../../../lib/cloud-place.ts';
import { LUAU_WRITE_SCOPE } from '../../../lib/cloud-run.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { OpenCloudCard } from './OpenCloudCard.tsx';

const savedKey = (overrides: Partial<OpenCloudKey> = {}): OpenCloudKey => ({
  universeId: '4200000001',
  maskedKey: 'rbxo…WXYZ',
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  lastImportAt: null,
  lastImportError: null,
  placeId: null,
  placeVersion: null,
  scopes: [LUAU_WRITE_SCOPE],
  ...overrides,
});

let key: OpenCloudKey;
let placeSaves: SaveCloudPlaceRequest[];

function serve(place: (body: SaveCloudPlaceRequest) => { status?: number; body: unknown }) {
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/open-cloud/key': () => ({ body: { key } }),
      'PUT /api/open-cloud/place': (body) => {
        placeSaves.push(body as SaveCloudPlaceRequest);
        return place(body as SaveCloudPlaceRequest);
      },
    }),
  );
}

const section = () => screen.findByTestId('cloud-runs-settings');
const placeForm = () => screen.getByRole('form', { name: 'Cloud run place' });

beforeEach(() => {
  signInAs();
  key = savedKey();
  placeSaves = [];
});
afterEach(() => vi.unstubAllGlobals());

describe('Settings → Roblox Open Cloud → the key', () => {
  const BAN_SCOPES = ['universe.user-restriction:read', 'universe.user-restriction:write'];
  const bans = () => screen.findByTestId('open-cloud-bans');

  it('says a key for cloud runs only imports no bans, and which scopes bans need', async () => {
    serve(() => ({ body: key }));
    renderWithProviders(<OpenCloudCard />);
    const shown = await bans();
    expect(shown).toHaveTextContent('This key is for cloud runs only');
    expect(shown).toHaveTextContent('universe.user-restriction:read and :write');
    expect(shown).not.toHaveTextContent('Bans not imported yet');
  });

  it('says when bans were last imported, or not yet, for a key that may ban (or that Roblox did not describe)', async () => {
    key = savedKey({ scopes: [...BAN_SCOPES, LUAU_WRITE_SCOPE] });
    serve(() => ({ body: key }));
    const { unmount } = renderWithProviders(<OpenCloudCard />);
    expect(await bans()).toHaveTextContent('Bans not imported yet.');
    unmount();

    queryClient.clear();
    key = savedKey({ scopes: null, lastImportAt: '2026-11-29T11:00:00.000Z' });
    renderWithProviders(<OpenCloudCard />);
    expect(await bans()).toHaveTextContent(/^Bans last imported .+\.$/);
  });

  it('has the editor read where cloud runs run again when the key is saved or the place is', async () => {
    let placeReads = 0;
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/open-cloud/key': () => ({ body: { key } }),
        'GET /api/open-cloud/place': () => {
          placeReads += 1;
          return {
            body: { universeId: key.universeId, placeId: key.placeId, placeVersion: null, ready: true, reason: null },
          };
        },
        'PUT /api/open-cloud/key': () => ({ body: key }),
        'PUT /api/open-cloud/place': (body) => {
          key = { ...key, placeId: (body as SaveCloudPlaceRequest).placeId };
          return { body: key };
        },
      }),
    );
    // As the editor left it: read once, and cached.
    await queryClient.fetchQuery(cloudPlaceQuery());
    expect(placeReads).toBe(1);
    renderWithProviders(<OpenCloudCard />);
    await section();
    await userEvent.type(within(placeForm()).getByRole('textbox', { name: 'Place ID' }), '4200000002');
    await userEvent.click(within(placeForm()).getByRole('button', { name: 'Save place' }));
    await waitFor(() => expect(queryClient.getQueryState(cloudPlaceQuery().queryKey)?.isInvalidated).toBe(true));

    await queryClient.fetchQuery(cloudPlaceQuery());
    expect(placeReads).toBe(2);
    await userEvent.click(screen.getByRole('button', { name: 'Replace' }));
    const form = screen.getByRole('form', { name: 'Open Cloud key' });
    await userEvent.type(within(form).getByLabelText('Open Cloud API key'), 'rbxoc_new');
    await userEvent.click(within(form).getByRole('button', { name: 'Replace key' }));
    await waitFor(() => expect(queryClient.getQueryState(cloudPlaceQuery().queryKey)?.isInvalidated).toBe(true));
    // Saved for cloud runs only: the toast does not promise an import of bans.
    expect(await screen.findByText(/Roblox accepted it\. This key is for cloud runs only/)).toBeInTheDocument();
  });
});

describe('Settings → Roblox Open Cloud → Cloud runs', () => {
  it('saves the place, and a pinned version of it', async () => {
    serve((body) => {
      key = { ...key, placeId: body.placeId, placeVersion: body.placeVersion ?? null };
      return { body: key };
    });
    renderWithProviders(<OpenCloudCard />);
    const cloud = await section();
    expect(within(cloud).getByTestId('cloud-scope')).toHaveTextContent(
      `This key may run code in Roblox (${LUAU_WRITE_SCOPE})`,
    );
    expect(within(cloud).getByTestId('cloud-place-current')).toHaveTextContent('No place set yet');
    expect(within(cloud).getByText(/Creator Hub → your experience → Places/)).toBeInTheDocument();

    const form = placeForm();
    const save = within(form).getByRole('button', { name: 'Save place' });
    expect(save).toBeDisabled();
    await userEvent.type(within(form).getByRole('textbox', { name: 'Place ID' }), ' 4200000002 ');
    await userEvent.type(within(form).getByRole('textbox', { name: /Pinned version/ }), '7');
    await userEvent.click(save);
    await waitFor(() => expect(placeSaves).toEqual([{ placeId: '4200000002', placeVersion: '7' }]));
    expect(await screen.findByText('Place saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(cloud).getByTestId('cloud-place-current')).toHaveTextContent(
        'Runs on place 4200000002, version 7.',
      ),
    );

    // An emptied version runs the newest again.
    await userEvent.clear(within(placeForm()).getByRole('textbox', { name: /Pinned version/ }));
    await userEvent.click(within(placeForm()).getByRole('button', { name: 'Save place' }));
    await waitFor(() => expect(placeSaves.at(-1)).toEqual({ placeId: '4200000002', placeVersion: null }));
    await waitFor(() =>
      expect(within(cloud).getByTestId('cloud-place-current')).toHaveTextContent(
        'Runs on place 4200000002, its newest version.',
      ),
    );
  });

  it("shows the server's reason when it refuses the place", async () => {
    serve(() => ({ status: 400, body: { error: CLOUD_RUN_ERRORS.placeIdInvalid } }));
    renderWithProviders(<OpenCloudCard />);
    await section();
    await userEvent.type(within(placeForm()).getByRole('textbox', { name: 'Place ID' }), 'my place');
    await userEvent.click(within(placeForm()).getByRole('button', { name: 'Save place' }));
    expect(await within(placeForm()).findByText(CLOUD_RUN_ERRORS.placeIdInvalid)).toBeInTheDocument();
  });

  it('says when the key may not run code, and when Roblox did not say', async () => {
    key = savedKey({ scopes: ['universe.user-restriction:read', 'universe.user-restriction:write'] });
    serve(() => ({ body: key }));
    const { unmount } = renderWithProviders(<OpenCloudCard />);
    const scope = within(await section()).getByTestId('cloud-scope');
    expect(scope).toHaveTextContent('This key may not run code in Roblox.');
    expect(scope).toHaveTextContent(`Add the Luau Execution API with ${LUAU_WRITE_SCOPE}`);
    unmount();

    queryClient.clear();
    key = savedKey({ scopes: null, placeId: '4200000002' });
    renderWithProviders(<OpenCloudCard />);
    const cloud = await section();
    expect(within(cloud).getByTestId('cloud-scope')).toHaveTextContent(
      'Roblox did not say whether this key may run code',
    );
    expect(within(cloud).getByTestId('cloud-place-current')).toHaveTextContent(
      'Runs on place 4200000002, its newest version.',
    );
    expect(within(placeForm()).getByRole('textbox', { name: 'Place ID' })).toHaveValue('4200000002');
  });
});

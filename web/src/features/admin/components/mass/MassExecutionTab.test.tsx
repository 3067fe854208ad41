import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { MassExecutionRequest, MassProgress } from '@moonrelay/contract/admin';
import { closeLiveSocket } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { useAdminLiveStore } from '../../live/admin-live-store.ts';
import { useSelection } from '../../selection.ts';
import { ALAN, GRACE, progress, renderAdmin } from '../../test-admin.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const target = ({ id, name, username }: typeof GRACE) => ({ id, name, username });

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
});
afterEach(() => {
  closeLiveSocket();
  useSelection.getState().clear();
  useAdminLiveStore.getState().clear();
  vi.unstubAllGlobals();
});

/** The mass-execution endpoint: answers every user 'queued' in batch-1 (unless told otherwise). */
function massRoute(answer?: (request: MassExecutionRequest) => { status?: number; body: unknown }) {
  return {
    'POST /api/admin/mass-execution': (body: unknown) => {
      const request = body as MassExecutionRequest;
      if (answer) return answer(request);
      return {
        body: {
          batchId: 'batch-1',
          items: request.userIds.map((userId) => progress({ userId, status: 'queued' })),
        },
      };
    },
  };
}

function select(...users: (typeof GRACE)[]) {
  useSelection.getState().setMany(users.map(target), true);
}

const sendButton = () => screen.getByRole('button', { name: 'Send Command' });
const executeButton = () => screen.getByRole('button', { name: 'Execute on Selected Users' });
const typeSelect = () => screen.getByRole('combobox', { name: 'Command type' });
const dataBox = () => screen.getByRole('textbox', { name: 'Command data (JSON)' });
const rowOf = (userId: string) => {
  const row = screen.getAllByTestId('mass-progress-row').find((element) => element.dataset.user === userId);
  if (!row) throw new Error(`no progress row for ${userId}`);
  return row;
};
const statusOf = (userId: string) => within(rowOf(userId)).getByTestId('mass-progress-status').textContent;
const serverSends = (part: MassProgress) => act(() => socket.serverSends('mass:progress', { progress: part }));

describe('Mass Execution: Send Command', () => {
  it('is disabled without a command type or without a selected user', async () => {
    renderAdmin({}, 'mass');
    await screen.findByRole('region', { name: 'Selected users' });
    expect(screen.getByText('Selected users (0)')).toBeInTheDocument();
    expect(
      within(typeSelect())
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select a command', 'teleport', 'heal', 'speed', 'reset']);
    expect(sendButton()).toBeDisabled();

    // A type but nobody selected.
    await userEvent.selectOptions(typeSelect(), 'heal');
    expect(sendButton()).toBeDisabled();

    // Somebody selected but no type.
    await userEvent.selectOptions(typeSelect(), '');
    act(() => select(GRACE));
    expect(await screen.findByText('Selected users (1)')).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper @grace')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();

    await userEvent.selectOptions(typeSelect(), 'heal');
    expect(sendButton()).toBeEnabled();

    // Removing the last selected user disables it again.
    await userEvent.click(screen.getByRole('button', { name: 'Unselect Grace Hopper' }));
    expect(sendButton()).toBeDisabled();
  });

  it('shows a JSON parse error under the data box and sends nothing', async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    select(GRACE);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Command type' }), 'speed');
    expect(dataBox()).toHaveValue('{"speed":50}');
    await userEvent.clear(dataBox());
    await userEvent.type(dataBox(), '{{"speed": 50');
    await userEvent.click(sendButton());

    expect(await screen.findByTestId('command-data-error')).toHaveTextContent(/^Invalid JSON: /);
    expect(dataBox()).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('POST', '/api/admin/mass-execution')).toHaveLength(0);
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();

    // Editing the data clears the error.
    await userEvent.type(dataBox(), '}');
    expect(screen.queryByTestId('command-data-error')).not.toBeInTheDocument();
  });

  it('says when the data does not fit the command, and sends nothing', async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    select(GRACE);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Command type' }), 'teleport');
    expect(dataBox()).toHaveValue('{"x":0,"y":50,"z":0}');
    await userEvent.clear(dataBox());
    await userEvent.type(dataBox(), '{{"x": 1}');
    await userEvent.click(sendButton());
    expect(await screen.findByTestId('command-data-error')).toHaveTextContent(/^The data does not fit teleport: y: /);

    await userEvent.clear(dataBox());
    await userEvent.type(dataBox(), '[[1, 2]');
    await userEvent.click(sendButton());
    expect(await screen.findByTestId('command-data-error')).toHaveTextContent('The data must be a JSON object');
    expect(callsTo('POST', '/api/admin/mass-execution')).toHaveLength(0);
  });

  it("sends the command for every selected user and toasts 'Command Sent'", async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    select(GRACE, ALAN);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Command type' }), 'speed');
    await userEvent.click(sendButton());

    expect(await screen.findByText('Command Sent')).toBeInTheDocument();
    expect(screen.getByText('Command queued for execution')).toBeInTheDocument();
    expect(callsTo('POST', '/api/admin/mass-execution').map((call) => call.body)).toEqual([
      { userIds: [GRACE.id, ALAN.id], command: { type: 'speed', data: { speed: 50 } } },
    ]);
    expect(await screen.findByText('Progress: Speed on 2 users')).toBeInTheDocument();
    expect(statusOf(GRACE.id)).toBe('Queued');
    expect(statusOf(ALAN.id)).toBe('Queued');
  });

  it("sends heal without data, and toasts 'Failed' / 'Could not send command.' when refused", async () => {
    const { callsTo } = renderAdmin(
      massRoute(() => ({ status: 400, body: { error: 'Send either a command or code' } })),
      'mass',
    );
    select(GRACE);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Command type' }), 'heal');
    expect(dataBox()).toHaveValue('');
    await userEvent.click(sendButton());
    expect(await screen.findByText('Could not send command. (Send either a command or code)')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(callsTo('POST', '/api/admin/mass-execution').map((call) => call.body)).toEqual([
      { userIds: [GRACE.id], command: { type: 'heal' } },
    ]);
  });
});

describe('Mass Execution: Execute on Selected Users', () => {
  it("toasts 'No Users Selected' without a selected user, and sends nothing", async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Lua script' }), 'print("hi")');
    await userEvent.click(executeButton());
    expect(await screen.findByText('No Users Selected')).toBeInTheDocument();
    expect(screen.getByText('Please select at least one user for mass execution.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/admin/mass-execution')).toHaveLength(0);
  });

  it("toasts 'No Script Provided' for a blank script, and sends nothing", async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    select(GRACE);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Lua script' }), '   \n  ');
    await userEvent.click(executeButton());
    expect(await screen.findByText('No Script Provided')).toBeInTheDocument();
    expect(screen.getByText('Please enter a script to execute.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/admin/mass-execution')).toHaveLength(0);
  });

  it('runs the script for each selected user and shows each part move on live', async () => {
    const { callsTo } = renderAdmin(massRoute(), 'mass');
    select(GRACE, ALAN);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Lua script' }), 'print("hi")');
    await userEvent.click(executeButton());

    expect(await screen.findByText('Script Sent')).toBeInTheDocument();
    expect(screen.getByText('Script queued for execution')).toBeInTheDocument();
    expect(callsTo('POST', '/api/admin/mass-execution').map((call) => call.body)).toEqual([
      { userIds: [GRACE.id, ALAN.id], code: 'print("hi")' },
    ]);
    expect(await screen.findByText('Progress: Script on 2 users')).toBeInTheDocument();
    expect(within(rowOf(GRACE.id)).getByText('Grace Hopper')).toBeInTheDocument();
    expect(statusOf(GRACE.id)).toBe('Queued');

    serverSends(progress({ userId: GRACE.id, status: 'sent' }));
    expect(statusOf(GRACE.id)).toBe('Sent');
    serverSends(progress({ userId: GRACE.id, status: 'delivered' }));
    expect(statusOf(GRACE.id)).toBe('Delivered');
    serverSends(progress({ userId: GRACE.id, status: 'succeeded', output: 'hi\n' }));
    expect(statusOf(GRACE.id)).toBe('Succeeded');
    expect(within(rowOf(GRACE.id)).getByTestId('mass-progress-output')).toHaveTextContent('hi');

    serverSends(progress({ userId: ALAN.id, status: 'not_connected', error: 'Game not connected' }));
    expect(statusOf(ALAN.id)).toBe('Not connected');
    expect(within(rowOf(ALAN.id)).getByText('Game not connected')).toBeInTheDocument();
    expect(screen.getByText(/2 of 2 finished/)).toBeInTheDocument();

    // A report of an earlier step arriving late does not undo a finished part.
    serverSends(progress({ userId: GRACE.id, status: 'sent' }));
    expect(statusOf(GRACE.id)).toBe('Succeeded');
    // Another batch's events do not touch this one.
    serverSends(progress({ batchId: 'batch-2', userId: ALAN.id, status: 'failed', error: 'boom' }));
    expect(statusOf(ALAN.id)).toBe('Not connected');
  });

  it('keeps progress that arrived before the call answered', async () => {
    renderAdmin(
      massRoute((request) => {
        // The job ran and reported before the server's answer reached the browser.
        socket.serverSends('mass:progress', {
          progress: progress({ userId: GRACE.id, status: 'failed', error: 'Lua error: boom' }),
        });
        return {
          body: { batchId: 'batch-1', items: request.userIds.map((userId) => progress({ userId, status: 'queued' })) },
        };
      }),
      'mass',
    );
    select(GRACE);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Lua script' }), 'print(1)');
    await userEvent.click(executeButton());
    expect(await screen.findByText('Progress: Script on 1 user')).toBeInTheDocument();
    expect(statusOf(GRACE.id)).toBe('Failed');
    expect(within(rowOf(GRACE.id)).getByText('Lua error: boom')).toBeInTheDocument();
  });

  it("toasts 'Failed' / 'Could not execute script.' with the server's reason", async () => {
    renderAdmin(
      massRoute(() => ({ status: 400, body: { error: 'Lua syntax error: 1:7: Expected expression' } })),
      'mass',
    );
    select(GRACE);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Lua script' }), 'print(');
    await userEvent.click(executeButton());
    expect(
      await screen.findByText('Could not execute script. (Lua syntax error: 1:7: Expected expression)'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Progress' })).not.toBeInTheDocument();
  });
});

describe('Mass Execution: the selected users', () => {
  it('lists whoever is selected in the Users tab and can clear them', async () => {
    renderAdmin({}, 'mass');
    select(GRACE, ALAN);
    const region = await screen.findByRole('region', { name: 'Selected users' });
    await waitFor(() => expect(within(region).getByText('Selected users (2)')).toBeInTheDocument());
    expect(within(region).getByText('Alan Turing @alan')).toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Clear selection' }));
    expect(within(region).getByText('Selected users (0)')).toBeInTheDocument();
    expect(useSelection.getState().selected).toEqual({});
  });
});

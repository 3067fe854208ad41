import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ComponentProps } from 'react';
import { renderWithProviders } from '../../../test/render.tsx';
import { SaveScriptDialog } from './SaveScriptDialog.tsx';
import { storedScript } from './test-fixtures.ts';

function renderDialog(props: Partial<ComponentProps<typeof SaveScriptDialog>> = {}) {
  const handlers = { onSave: vi.fn(), onSaveOnly: vi.fn(), onClose: vi.fn() };
  renderWithProviders(
    <SaveScriptDialog open autoExecute script={null} recentGames={[]} saving={false} {...handlers} {...props} />,
  );
  return { ...handlers, dialog: screen.getByRole('dialog') };
}

const scopeRadio = (name: RegExp | string) => screen.getByRole('radio', { name });

describe('SaveScriptDialog', () => {
  it("is titled 'Save Script Configuration' and names the primary button after the toggle", async () => {
    const { dialog } = renderDialog({ autoExecute: false });
    expect(within(dialog).getByText('Save Script Configuration')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save Script' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Auto-execute' }));
    expect(within(dialog).getByRole('button', { name: 'Save with Auto-Execute' })).toBeInTheDocument();
  });

  it('starts on all games for a script without a game, and offers no current game', () => {
    renderDialog();
    expect(scopeRadio('All games')).toBeChecked();
    expect(scopeRadio(/^Current game/)).toBeDisabled();
    expect(screen.getByText('Current game (no game connected)')).toBeInTheDocument();
  });

  it('starts on the current game when there is one and the script has no game', () => {
    renderDialog({ currentGame: { id: '77', name: 'Lobby' } });
    expect(scopeRadio('Current game (Lobby)')).toBeChecked();
    expect(scopeRadio('Current game (Lobby)')).toBeEnabled();
  });

  it("starts on a specific game, the script's own, when it has one", async () => {
    const { onSave } = renderDialog({
      script: storedScript({ gameId: '42', gameName: 'Tower', gameImageUrl: null }),
      currentGame: { id: '77', name: 'Lobby' },
      recentGames: [{ id: '8', name: 'Obby' }],
    });
    expect(scopeRadio('A specific game')).toBeChecked();
    expect(screen.getByLabelText('Recent games')).toHaveValue('42');
    await userEvent.click(screen.getByRole('button', { name: 'Save with Auto-Execute' }));
    expect(onSave).toHaveBeenCalledWith({
      autoExecute: true,
      config: {
        gameId: '42',
        gameName: 'Tower',
        gameImageUrl: null,
        autoExecuteGames: { '42': { enabled: true, gameName: 'Tower' } },
      },
    });
  });

  it("saves a typed game id as 'Game {id}'", async () => {
    const { onSave } = renderDialog({ recentGames: [{ id: '8', name: 'Obby' }] });
    await userEvent.click(scopeRadio('A specific game'));
    const save = screen.getByRole('button', { name: 'Save with Auto-Execute' });
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Game or universe ID'), '12x');
    expect(screen.getByText("Enter the game's numeric ID.")).toBeInTheDocument();
    expect(save).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Game or universe ID'));
    await userEvent.type(screen.getByLabelText('Game or universe ID'), '123');
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledWith({
      autoExecute: true,
      config: {
        gameId: '123',
        gameName: 'Game 123',
        gameImageUrl: null,
        autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
      },
    });
  });

  it('picks a recent game', async () => {
    const { onSave } = renderDialog({
      recentGames: [
        { id: '8', name: 'Obby', imageUrl: 'https://img/8.png' },
        { id: '9', name: 'Tycoon' },
      ],
    });
    await userEvent.click(scopeRadio('A specific game'));
    await userEvent.selectOptions(screen.getByLabelText('Recent games'), '8');
    await userEvent.click(screen.getByRole('button', { name: 'Save with Auto-Execute' }));
    expect(onSave).toHaveBeenCalledWith({
      autoExecute: true,
      config: {
        gameId: '8',
        gameName: 'Obby',
        gameImageUrl: 'https://img/8.png',
        autoExecuteGames: { '8': { enabled: true, gameName: 'Obby', gameImageUrl: 'https://img/8.png' } },
      },
    });
  });

  it('saves every game by default, and no game config with the toggle off', async () => {
    const { onSave } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Save with Auto-Execute' }));
    expect(onSave).toHaveBeenLastCalledWith({
      autoExecute: true,
      config: { gameId: null, gameName: null, gameImageUrl: null, autoExecuteGames: { all: { enabled: true } } },
    });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auto-execute' }));
    expect(scopeRadio('All games')).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save Script' }));
    expect(onSave).toHaveBeenLastCalledWith({ autoExecute: false, config: null });
  });

  it('hands Save Only and Cancel to the editor', async () => {
    const { onSaveOnly, onClose, onSave } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Save Only' }));
    expect(onSaveOnly).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });
});

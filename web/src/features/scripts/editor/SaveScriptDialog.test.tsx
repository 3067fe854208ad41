import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ComponentProps } from 'react';
import { renderWithProviders } from '../../../test/render.tsx';
import { SaveScriptDialog } from './SaveScriptDialog.tsx';
import { storedScript } from './test-fixtures.ts';

function renderDialog(props: Partial<ComponentProps<typeof SaveScriptDialog>> = {}) {
  const handlers = { onSave: vi.fn(), onClose: vi.fn() };
  renderWithProviders(
    <SaveScriptDialog open autoExecute script={null} recentGames={[]} saving={false} {...handlers} {...props} />,
  );
  return { ...handlers, dialog: screen.getByRole('dialog') };
}

const scopeRadio = (name: RegExp | string) => screen.getByRole('radio', { name });

describe('SaveScriptDialog', () => {
  it("says what a manual script's save does, and asks nothing more", async () => {
    const { dialog, onSave } = renderDialog({ autoExecute: false, script: storedScript() });
    expect(within(dialog).getByText('Save Script Configuration')).toBeInTheDocument();
    // The execution type is the form's: told, not asked again.
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    const type = within(dialog).getByTestId('save-execution-type');
    expect(type).toHaveTextContent('Manual Execution');
    expect(type).toHaveTextContent('It runs only when you start it');
    expect(type).toHaveTextContent('set Execution Type to Auto-Execute on Join');
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cancel', 'Save Script', '']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Script' }));
    // No game fields: a manual script's games stay as they are.
    expect(onSave).toHaveBeenCalledWith(null);
  });

  it('asks where an auto-execute script runs', () => {
    const { dialog } = renderDialog();
    const type = within(dialog).getByTestId('save-execution-type');
    expect(type).toHaveTextContent('Auto-Execute on Join');
    expect(type).toHaveTextContent('Your game runs this script once when you join a game it applies to.');
    expect(within(dialog).getByRole('group', { name: 'Auto-execute in' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save with Auto-Execute' })).toBeInTheDocument();
    // A new script has no games to keep.
    expect(within(dialog).queryByRole('button', { name: 'Keep Current Games' })).not.toBeInTheDocument();
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
      gameId: '42',
      gameName: 'Tower',
      gameImageUrl: null,
      autoExecuteGames: { '42': { enabled: true, gameName: 'Tower' } },
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
      gameId: '123',
      gameName: 'Game 123',
      gameImageUrl: null,
      autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
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
      gameId: '8',
      gameName: 'Obby',
      gameImageUrl: 'https://img/8.png',
      autoExecuteGames: { '8': { enabled: true, gameName: 'Obby', gameImageUrl: 'https://img/8.png' } },
    });
  });

  it('saves every game by default', async () => {
    const { onSave } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Save with Auto-Execute' }));
    expect(onSave).toHaveBeenLastCalledWith({
      gameId: null,
      gameName: null,
      gameImageUrl: null,
      autoExecuteGames: { all: { enabled: true } },
    });
  });

  it('offers a script that auto-executes already to keep its games, saying which', async () => {
    const { dialog, onSave } = renderDialog({
      script: storedScript({
        isAutoExecute: true,
        gameId: '42',
        gameName: 'Tower',
        autoExecuteGames: { '42': { enabled: true, gameName: 'Tower' }, '8': { enabled: true } },
      }),
    });
    const keep = within(dialog).getByRole('button', { name: 'Keep Current Games' });
    expect(keep).toHaveAccessibleDescription(
      'Save with Auto-Execute saves it for the games chosen above; Keep Current Games saves your changes and leaves the games as they are now: Game 8 and Tower.',
    );
    await userEvent.click(keep);
    expect(onSave).toHaveBeenLastCalledWith(null);
  });

  it('offers no games to keep when the script is turning auto-execute on', () => {
    const { dialog } = renderDialog({ script: storedScript({ isAutoExecute: false }) });
    expect(within(dialog).queryByRole('button', { name: 'Keep Current Games' })).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId('kept-games')).not.toBeInTheDocument();
  });

  it('hands Cancel to the editor', async () => {
    const { onClose, onSave } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });
});

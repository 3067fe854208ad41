import { fireEvent, screen } from '@testing-library/react';
import type { Ace } from 'ace-builds';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { LuaCodeEditor } from './LuaCodeEditor.tsx';

/** The real Ace editor inside the container (Ace keeps it on its element's `env`). */
function aceIn(container: HTMLElement): Ace.Editor {
  const element = container.querySelector('.ace_editor') as (HTMLElement & { env?: { editor: Ace.Editor } }) | null;
  if (!element?.env) throw new Error('Ace did not mount');
  return element.env.editor;
}

function renderEditor(props: { readOnly?: boolean; value?: string } = {}) {
  const handlers = { onChange: vi.fn(), onSave: vi.fn(), onExecute: vi.fn() };
  renderWithProviders(<LuaCodeEditor value={props.value ?? 'local x = 1'} {...props} {...handlers} />);
  return { ...handlers, editor: aceIn(screen.getByTestId('code-editor')) };
}

const keyDown = (target: Element, init: KeyboardEventInit & { keyCode: number }) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'keyCode', { value: init.keyCode });
  fireEvent(target, event);
  return event;
};

describe('LuaCodeEditor (real Ace)', () => {
  it('uses the Luau mode, the dark theme and the editor settings of the spec, without a worker', () => {
    const { editor } = renderEditor();
    const session = editor.getSession();
    expect((session.getMode() as { $id?: string }).$id).toBe('ace/mode/luau');
    expect(editor.getTheme()).toBe('ace/theme/tomorrow_night');
    expect(editor.getFontSize()).toBe('14px');
    expect(session.getTabSize()).toBe(2);
    expect(session.getUseWrapMode()).toBe(true);
    expect(session.getOption('useWorker')).toBe(false);
    expect(editor.getShowPrintMargin()).toBe(false);
    expect(editor.getValue()).toBe('local x = 1');
    expect(session.getTokens(0)[0]).toMatchObject({ type: 'keyword', value: 'local' });
  });

  it('shows the placeholder when the code is empty', () => {
    renderEditor({ value: '' });
    expect(screen.getByText('-- Write your Lua code here...')).toBeInTheDocument();
  });

  it('reports edits', () => {
    const { editor, onChange } = renderEditor({ value: '' });
    editor.insert('print(1)');
    expect(onChange).toHaveBeenLastCalledWith('print(1)', expect.anything());
  });

  it('saves on Ctrl+S and executes on Ctrl+Enter inside the editor, keeping them from the page', () => {
    const { editor, onSave, onExecute } = renderEditor();
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    const input = editor.textInput.getElement();
    const save = keyDown(input, { key: 's', keyCode: 83, ctrlKey: true });
    expect(onSave).toHaveBeenCalledOnce();
    expect(save.defaultPrevented).toBe(true);
    keyDown(input, { key: 'Enter', keyCode: 13, ctrlKey: true });
    expect(onExecute).toHaveBeenCalledOnce();
    expect(onWindowKey).not.toHaveBeenCalled();
    window.removeEventListener('keydown', onWindowKey);
  });

  it('is read-only while a script runs, but the shortcuts still answer', async () => {
    const onSave = vi.fn();
    function Running() {
      const [running, setRunning] = useState(true);
      return (
        <>
          <button onClick={() => setRunning(false)}>Finish</button>
          <LuaCodeEditor
            value="local x = 1"
            onChange={() => {}}
            readOnly={running}
            onSave={onSave}
            onExecute={() => {}}
          />
        </>
      );
    }
    renderWithProviders(<Running />);
    const editor = aceIn(screen.getByTestId('code-editor'));
    expect(editor.getReadOnly()).toBe(true);
    editor.execCommand('saveScript');
    expect(onSave).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(editor.getReadOnly()).toBe(false);
  });
});

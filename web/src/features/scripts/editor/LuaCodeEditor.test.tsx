import { fireEvent, screen } from '@testing-library/react';
import type { Ace } from 'ace-builds';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { LuaDiagnostic } from '@moonrelay/contract/executions';
import { renderWithProviders } from '../../../test/render.tsx';
import { EDITOR_TEXT } from './editor-form.ts';
import { EDITOR_FONT_FAMILY, EDITOR_LINE_HEIGHT, LuaCodeEditor } from './LuaCodeEditor.tsx';

/** The real Ace editor inside the container (Ace keeps it on its element's `env`). */
function aceIn(container: HTMLElement): Ace.Editor {
  const element = container.querySelector('.ace_editor') as (HTMLElement & { env?: { editor: Ace.Editor } }) | null;
  if (!element?.env) throw new Error('Ace did not mount');
  return element.env.editor;
}

function renderEditor(props: { readOnly?: boolean; value?: string; initialLine?: number } = {}) {
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
    // Lines tall enough for what a monospace font draws below its baseline (underscores), in the
    // bundled font before the system's own.
    expect(editor.container.style.lineHeight).toBe(`${EDITOR_LINE_HEIGHT}px`);
    expect(EDITOR_LINE_HEIGHT).toBeGreaterThanOrEqual(20);
    expect(editor.getOption('fontFamily')).toBe(EDITOR_FONT_FAMILY);
    expect(EDITOR_FONT_FAMILY).toMatch(/^"JetBrains Mono", .*monospace$/);
    expect(session.getTabSize()).toBe(2);
    expect(session.getUseWrapMode()).toBe(true);
    expect(session.getOption('useWorker')).toBe(false);
    expect(editor.getShowPrintMargin()).toBe(false);
    expect(editor.getValue()).toBe('local x = 1');
    expect(session.getTokens(0)[0]).toMatchObject({ type: 'keyword', value: 'local' });
  });

  it('opens at the line asked for (an error line from the Console), with the focus in the code', () => {
    const value = Array.from({ length: 40 }, (_, index) => `print(${index + 1})`).join('\n');
    const { editor } = renderEditor({ value, initialLine: 12 });
    expect(editor.getCursorPosition()).toEqual({ row: 11, column: 0 });
    expect(editor.isFocused()).toBe(true);
  });

  it("starts a new script's cursor on the line below the default comment", () => {
    const { editor } = renderEditor({ value: EDITOR_TEXT.defaultCode });
    expect(editor.getValue()).toBe('-- Write your Lua code here...\n');
    expect(editor.getCursorPosition()).toEqual({ row: 1, column: 0 });
    editor.insert('print(1)');
    expect(editor.getValue()).toBe('-- Write your Lua code here...\nprint(1)');
  });

  it('lets Esc leave the code, so Tab moves on to the rest of the page', () => {
    const { editor } = renderEditor();
    const scroller = editor.renderer.scroller as HTMLElement;
    // The code area is one tab stop; its text input is reached by Enter, not by Tab.
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(editor.textInput.getElement()).toHaveAttribute('tabindex', '-1');
    editor.focus();
    keyDown(editor.textInput.getElement(), { key: 'Escape', keyCode: 27 });
    expect(editor.isFocused()).toBe(false);
    expect(document.activeElement).toBe(scroller);
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

  it('formats on Shift+Alt+F inside the editor, keeping it from the page', () => {
    const onFormat = vi.fn();
    renderWithProviders(
      <LuaCodeEditor
        value="local x=1"
        onChange={() => {}}
        onSave={() => {}}
        onExecute={() => {}}
        onFormat={onFormat}
      />,
    );
    const editor = aceIn(screen.getByTestId('code-editor'));
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    const event = keyDown(editor.textInput.getElement(), { key: 'F', keyCode: 70, shiftKey: true, altKey: true });
    expect(onFormat).toHaveBeenCalledOnce();
    expect(event.defaultPrevented).toBe(true);
    expect(onWindowKey).not.toHaveBeenCalled();
    window.removeEventListener('keydown', onWindowKey);
  });

  it('keeps code replaced from outside (Format) undoable', async () => {
    function Formatting() {
      const [code, setCode] = useState('local   x=1');
      return (
        <>
          <button onClick={() => setCode('local x = 1\n')}>Format</button>
          <LuaCodeEditor value={code} onChange={setCode} onSave={() => {}} onExecute={() => {}} />
        </>
      );
    }
    renderWithProviders(<Formatting />);
    const editor = aceIn(screen.getByTestId('code-editor'));
    await userEvent.click(screen.getByRole('button', { name: 'Format' }));
    expect(editor.getValue()).toBe('local x = 1\n');
    editor.undo();
    expect(editor.getValue()).toBe('local   x=1');
  });
});

describe('LuaCodeEditor diagnostics (real Ace)', () => {
  const diagnostic = (line: number, column: number, endLine: number, endColumn: number, message: string) =>
    ({ line, column, endLine, endColumn, message }) satisfies LuaDiagnostic;

  /** The markers this component added (Ace has its own, such as the active line, besides). */
  const diagnosticMarkers = (editor: Ace.Editor) =>
    Object.values(editor.getSession().getMarkers(true) ?? {})
      .filter((marker) => marker.clazz === 'luau-diagnostic')
      .map((marker) => {
        const { start, end } = marker.range as Ace.Range;
        return [start.row, start.column, end.row, end.column];
      });

  /** The editor with each set of diagnostics in turn: 'Next' moves to the next set. */
  function Checked({ steps }: { steps: LuaDiagnostic[][] }) {
    const [step, setStep] = useState(0);
    return (
      <>
        <button onClick={() => setStep(step + 1)}>Next</button>
        <LuaCodeEditor
          value={'local x = = 1\nif x then'}
          onChange={() => {}}
          onSave={() => {}}
          onExecute={() => {}}
          diagnostics={steps[step] ?? []}
        />
      </>
    );
  }

  it('shows each diagnostic as an error annotation in the gutter and an underline marker', async () => {
    const steps = [
      [
        diagnostic(1, 9, 1, 10, "Expected identifier when parsing expression, got '='"),
        diagnostic(2, 10, 2, 10, "Expected 'end' (to close 'then' at column 6), got <eof>"),
      ],
      [diagnostic(1, 11, 1, 12, "Expected identifier when parsing expression, got '='")],
      [],
    ];
    renderWithProviders(<Checked steps={steps} />);
    const editor = aceIn(screen.getByTestId('code-editor'));
    expect(editor.getSession().getAnnotations()).toEqual([
      { row: 0, column: 8, type: 'error', text: "Expected identifier when parsing expression, got '='" },
      { row: 1, column: 9, type: 'error', text: "Expected 'end' (to close 'then' at column 6), got <eof>" },
    ]);
    expect(diagnosticMarkers(editor)).toEqual([
      [0, 8, 0, 9],
      // A point at the end of the line underlines its last character.
      [1, 8, 1, 9],
    ]);
    // The underline's style is in the page (Ace's importCssString: a <style> element).
    const style = document.getElementById('moonrelay-luau-diagnostics');
    expect(style?.tagName).toBe('STYLE');
    expect(style?.textContent).toContain('.luau-diagnostic');

    // New diagnostics replace the old ones; none clears them, leaving Ace's own markers alone.
    const ownMarkers = () =>
      Object.values(editor.getSession().getMarkers(false) ?? {}).filter((marker) => marker.clazz !== 'luau-diagnostic')
        .length;
    const before = ownMarkers();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(diagnosticMarkers(editor)).toEqual([[0, 10, 0, 11]]);
    expect(editor.getSession().getAnnotations()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(diagnosticMarkers(editor)).toEqual([]);
    expect(editor.getSession().getAnnotations()).toEqual([]);
    expect(ownMarkers()).toBe(before);
  });
});

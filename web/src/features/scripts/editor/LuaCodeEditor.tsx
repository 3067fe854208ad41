import { Box } from '@chakra-ui/react';
import { useEffect, useId, useMemo, useRef } from 'react';
import AceEditor, { type ICommand } from 'react-ace';
import * as ace from 'ace-builds';
import { config as aceConfig, Range, type Ace } from 'ace-builds';
import type { LuaDiagnostic } from '@moonrelay/contract/executions';
// Everything Ace needs is bundled into this (lazy) chunk; Ace is never pointed at a URL of its own.
import { LuauMode } from './luau-mode.ts';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import 'ace-builds/src-noconflict/ext-searchbox';
import 'ace-builds/src-noconflict/ext-error_marker';
import { EDITOR_FONT_SIZE, EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';
import { EDITOR_TEXT } from './editor-form.ts';
import { DIAGNOSTIC_CSS, diagnosticAnnotations, diagnosticMarkers } from './diagnostics.ts';
import { EDITOR_FONT_FAMILY, registerEditorFont } from './editor-font.ts';

// Ace's default key bindings for go-to-line, the command palette (both use the prompt) and the
// settings menu ask for these extensions on demand: they come as chunks of this app, not from a CDN.
aceConfig.setModuleLoader('ace/ext/prompt', () => import('ace-builds/src-noconflict/ext-prompt'));
aceConfig.setModuleLoader('ace/ext/settings_menu', () => import('ace-builds/src-noconflict/ext-settings_menu'));

const luauMode = new LuauMode();

// The code's font loads with this chunk only: the sign-in screen never asks for it.
registerEditorFont();

// The diagnostics' wavy underline: a <style> element through Ace's own helper (the CSP allows inline styles).
(ace.require('ace/lib/dom') as { importCssString(css: string, id: string): void }).importCssString(
  DIAGNOSTIC_CSS,
  'moonrelay-luau-diagnostics',
);

const NO_DIAGNOSTICS: readonly LuaDiagnostic[] = [];

/** The editor's font stack (from editor-font.ts, which code shown without Ace reads too), beside its line height. */
export { EDITOR_FONT_FAMILY };

/**
 * Whichever font draws, the line height leaves room below the baseline: Ace's `normal` line
 * height (16 px for a 14 px DejaVu Sans Mono) cut off underscores.
 */
export const EDITOR_LINE_HEIGHT = Math.round(EDITOR_FONT_SIZE * 1.5);

interface Props {
  value: string;
  onChange(value: string): void;
  /** While a script runs its code cannot change. */
  readOnly?: boolean;
  /** Ctrl/Cmd+S inside the editor. */
  onSave(): void;
  /** Ctrl/Cmd+Enter inside the editor. */
  onExecute(): void;
  /** Shift+Alt+F inside the editor. */
  onFormat?(): void;
  /** Syntax errors: a gutter annotation and a wavy underline each. */
  diagnostics?: readonly LuaDiagnostic[];
  height?: string;
  label?: string;
  /** Opens with the cursor on this line (1-based), scrolled into view and focused: /editor?id=&line=. */
  initialLine?: number;
}

/**
 * Ace with Luau highlighting, the dark theme and the editor settings of spec section 9, plus the
 * syntax diagnostics. A new `value` from outside (Format, for one) goes through Ace's
 * editor.setValue, which the undo history records: Ctrl+Z brings the previous code back.
 */
export function LuaCodeEditor({
  value,
  onChange,
  readOnly = false,
  onSave,
  onExecute,
  onFormat,
  diagnostics = NO_DIAGNOSTICS,
  height = '420px',
  label = 'Code',
  initialLine,
}: Props) {
  const name = useId();
  const editorRef = useRef<Ace.Editor | null>(null);
  // Ace registers commands once, when it mounts: they call whatever the latest handlers are.
  const actions = useRef({ onSave, onExecute, onFormat });
  useEffect(() => {
    actions.current = { onSave, onExecute, onFormat };
  });
  const commands = useMemo<ICommand[]>(
    () => [
      {
        name: 'saveScript',
        bindKey: { win: 'Ctrl-S', mac: 'Command-S' },
        exec: () => actions.current.onSave(),
        readOnly: true,
      },
      {
        name: 'executeScript',
        bindKey: { win: 'Ctrl-Enter', mac: 'Command-Enter' },
        exec: () => actions.current.onExecute(),
        readOnly: true,
      },
      {
        // The screen decides whether formatting is possible (not while a script runs).
        name: 'formatScript',
        bindKey: { win: 'Shift-Alt-F', mac: 'Shift-Alt-F' },
        exec: () => actions.current.onFormat?.(),
        readOnly: true,
      },
    ],
    [],
  );

  // react-ace re-applies this prop whenever the value changes from outside, so it is kept as a prop.
  const annotations = useMemo(() => diagnosticAnnotations(diagnostics), [diagnostics]);

  // Markers are added here rather than through react-ace's `markers` prop, which also removes Ace's
  // own markers (the selection, bracket highlights) each time it updates.
  useEffect(() => {
    const session = editorRef.current?.getSession();
    if (!session || diagnostics.length === 0) return;
    const lineLength = (row: number) => (row < session.getLength() ? session.getLine(row).length : 0);
    const ids = diagnosticMarkers(diagnostics, lineLength).map((marker) =>
      session.addMarker(
        new Range(marker.startRow, marker.startCol, marker.endRow, marker.endCol),
        marker.className,
        'text',
        true,
      ),
    );
    return () => ids.forEach((id) => session.removeMarker(id));
  }, [diagnostics]);

  return (
    <Box
      data-testid="code-editor"
      borderWidth="1px"
      borderRadius="md"
      overflow="hidden"
      // Ace draws no focus ring of its own around the code while typing.
      _focusWithin={{ outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'purple.400', outlineOffset: '2px' }}
    >
      <AceEditor
        name={name}
        mode={luauMode}
        theme="tomorrow_night"
        width="100%"
        height={height}
        value={value}
        onChange={onChange}
        readOnly={readOnly}
        fontSize={EDITOR_FONT_SIZE}
        lineHeight={EDITOR_LINE_HEIGHT}
        tabSize={EDITOR_TAB_SIZE}
        wrapEnabled
        showPrintMargin={false}
        placeholder={EDITOR_TEXT.codePlaceholder}
        commands={commands}
        annotations={annotations}
        onLoad={(editor) => {
          editorRef.current = editor;
          if (initialLine) {
            editor.gotoLine(initialLine, 0, false);
            editor.focus();
          } else if (editor.getValue() === EDITOR_TEXT.defaultCode) {
            // A new script's comment: the cursor waits on the line below it, where the code goes.
            editor.navigateFileEnd();
          }
        }}
        // Keyboard accessibility: Tab indents while typing; Esc leaves typing, and then Tab moves on
        // to the rest of the page (Enter comes back to the code).
        setOptions={{
          useWorker: false,
          fontFamily: EDITOR_FONT_FAMILY,
          useSoftTabs: true,
          textInputAriaLabel: label,
          enableKeyboardAccessibility: true,
        }}
      />
    </Box>
  );
}

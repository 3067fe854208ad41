import { Box } from '@chakra-ui/react';
import { useEffect, useId, useMemo, useRef } from 'react';
import AceEditor, { type ICommand } from 'react-ace';
import { config as aceConfig } from 'ace-builds';
// Everything Ace needs is bundled into this (lazy) chunk; Ace is never pointed at a URL of its own.
import { LuauMode } from './luau-mode.ts';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import 'ace-builds/src-noconflict/ext-searchbox';
import 'ace-builds/src-noconflict/ext-error_marker';
import { EDITOR_FONT_SIZE, EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';
import { EDITOR_TEXT } from './editor-form.ts';

// Ace's default key bindings for go-to-line, the command palette (both use the prompt) and the
// settings menu ask for these extensions on demand: they come as chunks of this app, not from a CDN.
aceConfig.setModuleLoader('ace/ext/prompt', () => import('ace-builds/src-noconflict/ext-prompt'));
aceConfig.setModuleLoader('ace/ext/settings_menu', () => import('ace-builds/src-noconflict/ext-settings_menu'));

const luauMode = new LuauMode();

interface Props {
  value: string;
  onChange(value: string): void;
  /** While a script runs its code cannot change. */
  readOnly?: boolean;
  /** Ctrl/Cmd+S inside the editor. */
  onSave(): void;
  /** Ctrl/Cmd+Enter inside the editor. */
  onExecute(): void;
  height?: string;
  label?: string;
}

/** Ace with Luau highlighting, the dark theme and the editor settings of spec section 9. */
export function LuaCodeEditor({
  value,
  onChange,
  readOnly = false,
  onSave,
  onExecute,
  height = '420px',
  label = 'Code',
}: Props) {
  const name = useId();
  // Ace registers commands once, when it mounts: they call whatever the latest handlers are.
  const actions = useRef({ onSave, onExecute });
  useEffect(() => {
    actions.current = { onSave, onExecute };
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
    ],
    [],
  );

  return (
    <Box data-testid="code-editor" borderWidth="1px" borderRadius="md" overflow="hidden">
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
        tabSize={EDITOR_TAB_SIZE}
        wrapEnabled
        showPrintMargin={false}
        placeholder={EDITOR_TEXT.codePlaceholder}
        commands={commands}
        setOptions={{ useWorker: false, useSoftTabs: true, textInputAriaLabel: label }}
      />
    </Box>
  );
}

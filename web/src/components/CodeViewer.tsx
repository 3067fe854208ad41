import { Box } from '@chakra-ui/react';
import AceEditor from 'react-ace';
// Bundled into the lazy chunk of whoever imports this, as the Script Editor's Ace is: no CDN, no worker.
import 'ace-builds/src-noconflict/mode-lua';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import { EDITOR_FONT_SIZE, EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';

interface Props {
  code: string;
  /** The accessible name of the code area. */
  label: string;
  testId?: string;
  height?: string;
}

/**
 * Lua source, read-only, with the Script Editor's look (spec section 9): a catalogue script's
 * preview, the code of a run. Import it lazily, so Ace comes only with the screens that show code.
 */
export default function CodeViewer({ code, label, testId, height = '360px' }: Props) {
  return (
    <Box data-testid={testId} borderWidth="1px" borderRadius="md" overflow="hidden">
      <AceEditor
        mode="lua"
        theme="tomorrow_night"
        width="100%"
        height={height}
        value={code}
        readOnly
        fontSize={EDITOR_FONT_SIZE}
        tabSize={EDITOR_TAB_SIZE}
        wrapEnabled
        showPrintMargin={false}
        highlightActiveLine={false}
        setOptions={{ useWorker: false, textInputAriaLabel: label }}
      />
    </Box>
  );
}

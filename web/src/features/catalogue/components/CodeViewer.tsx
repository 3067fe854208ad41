import { Box } from '@chakra-ui/react';
import AceEditor from 'react-ace';
// Bundled into this lazy chunk, as the Script Editor's Ace is: no CDN, no worker.
import 'ace-builds/src-noconflict/mode-lua';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import { EDITOR_FONT_SIZE, EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';

/** A catalogue script's source, read-only, with the Script Editor's look (spec section 9). */
export default function CodeViewer({ code, label }: { code: string; label: string }) {
  return (
    <Box data-testid="catalogue-code" borderWidth="1px" borderRadius="md" overflow="hidden">
      <AceEditor
        mode="lua"
        theme="tomorrow_night"
        width="100%"
        height="360px"
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

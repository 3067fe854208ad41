import { chakra } from '@chakra-ui/react';
import { EDITOR_FONT_SIZE, EDITOR_TAB_SIZE } from '@moonrelay/contract/constants';
import { useFocusableWhenScrolling } from '../../../lib/scroll-focus.ts';
import { EDITOR_FONT_FAMILY, registerEditorFont } from '../editor/editor-font.ts';

// The editor's font, known to the page once this chunk loads; nothing is downloaded until drawn.
registerEditorFont();

/** Set once: the code's look is the editor's (font, size, tabs), without bringing Ace for reading. */
const CODE_CSS = { tabSize: EDITOR_TAB_SIZE } as const;

/**
 * Code to read, not to edit: a shared script's page. A plain `<pre>` in the editor's font rather
 * than the read-only Ace view (CodeViewer), whose chunk a visitor who only reads would wait for.
 * A tab stop while it scrolls, so a keyboard reaches the hidden part.
 */
export function SharedCode({ code, label }: { code: string; label: string }) {
  const scroll = useFocusableWhenScrolling<HTMLPreElement>();
  return (
    <chakra.pre
      ref={scroll.ref}
      tabIndex={scroll.tabIndex}
      role="region"
      aria-label={label}
      data-testid="shared-code"
      fontFamily={EDITOR_FONT_FAMILY}
      fontSize={`${EDITOR_FONT_SIZE}px`}
      lineHeight="1.5"
      whiteSpace="pre"
      overflow="auto"
      maxH="70vh"
      p="4"
      bg="bg.muted"
      borderWidth="1px"
      borderRadius="md"
      focusVisibleRing="inside"
      css={CODE_CSS}
    >
      <code>{code}</code>
    </chakra.pre>
  );
}

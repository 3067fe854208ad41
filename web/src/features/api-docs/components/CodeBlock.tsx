import { Box, HStack, Text } from '@chakra-ui/react';
import { useFocusableWhenScrolling } from '../../../lib/scroll-focus.ts';
import { CopyCodeButton } from './CopyCodeButton.tsx';

interface Props {
  code: string;
  /** What the copy button copies, e.g. "cURL example for POST /api/scripts". */
  copyLabel?: string;
  caption?: string;
  maxH?: string;
  /** The box's name for assistive technology when it scrolls (the caption, or the copy label). */
  label?: string;
}

/** Code or JSON, preformatted, with an optional copy button in its top corner. */
export function CodeBlock({ code, copyLabel, caption, maxH = '80', label }: Props) {
  const scroll = useFocusableWhenScrolling<HTMLPreElement>();
  return (
    <Box position="relative" borderWidth="1px" borderRadius="md" bg="bg.muted">
      {(caption || copyLabel) && (
        <HStack justify="space-between" px="3" pt="2">
          <Text fontSize="xs" color="fg.muted">
            {caption}
          </Text>
          {copyLabel && <CopyCodeButton value={code} label={copyLabel} />}
        </HStack>
      )}
      <Box
        as="pre"
        ref={scroll.ref}
        tabIndex={scroll.tabIndex}
        aria-label={scroll.tabIndex === 0 ? (label ?? copyLabel ?? caption) : undefined}
        focusVisibleRing="inside"
        fontFamily="mono"
        fontSize="xs"
        lineHeight="tall"
        whiteSpace="pre"
        overflow="auto"
        maxH={maxH}
        px="3"
        py="2"
        data-testid="code-block"
      >
        {code}
      </Box>
    </Box>
  );
}

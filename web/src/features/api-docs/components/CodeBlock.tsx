import { Box, HStack, Text } from '@chakra-ui/react';
import { CopyCodeButton } from './CopyCodeButton.tsx';

interface Props {
  code: string;
  /** What the copy button copies, e.g. "cURL example for POST /api/scripts". */
  copyLabel?: string;
  caption?: string;
  maxH?: string;
}

/** Code or JSON, preformatted, with an optional copy button in its top corner. */
export function CodeBlock({ code, copyLabel, caption, maxH = '80' }: Props) {
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

import { Box, Button, Card, HStack } from '@chakra-ui/react';
import { Check, Copy, Download } from 'lucide-react';
import { useCopyToClipboard } from '../../../lib/clipboard.ts';
import { useFocusableWhenScrolling } from '../../../lib/scroll-focus.ts';
import { downloadTextFile } from '../../../lib/download.ts';
import { notify } from '../../../lib/toaster.tsx';
import { GAME_TOASTS } from '../game-text.ts';

interface Props {
  title: string;
  description: string;
  script: string;
  /** The name the download is saved under, e.g. quick-loader.txt. */
  fileName: string;
}

/** One integration script: read-only, with Copy and Download. */
export function IntegrationScriptCard({ title, description, script, fileName }: Props) {
  const { copied, copy } = useCopyToClipboard(GAME_TOASTS.copied);
  const scroll = useFocusableWhenScrolling<HTMLPreElement>();
  const download = () => {
    downloadTextFile(fileName, script);
    notify({ title: GAME_TOASTS.downloaded });
  };

  return (
    <Card.Root role="region" aria-label={title} size="sm">
      <Card.Header>
        <Card.Title>{title}</Card.Title>
        <Card.Description>{description}</Card.Description>
      </Card.Header>
      <Card.Body>
        <Box
          as="pre"
          ref={scroll.ref}
          tabIndex={scroll.tabIndex}
          aria-label={scroll.tabIndex === 0 ? `${title} (code)` : undefined}
          focusVisibleRing="inside"
          data-testid="integration-script"
          fontFamily="mono"
          fontSize="xs"
          whiteSpace="pre"
          overflow="auto"
          maxH="48"
          p="3"
          borderRadius="md"
          bg="bg.muted"
        >
          {script}
        </Box>
      </Card.Body>
      <Card.Footer>
        <HStack gap="2">
          <Button size="sm" variant="outline" onClick={() => void copy(script)}>
            {copied ? <Check size={14} /> : <Copy size={14} />} Copy
          </Button>
          <Button size="sm" variant="outline" onClick={download}>
            <Download size={14} /> Download
          </Button>
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
}

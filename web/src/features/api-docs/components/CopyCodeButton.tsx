import { Button } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useCopyToClipboard } from '../../../lib/clipboard.ts';
import { DOCS_COPIED_TITLE } from '../docs-text.ts';

/** Copies `value`; reads "Copied" with a check mark for 2 s afterwards (spec section 9). */
export function CopyCodeButton({ value, label }: { value: string; label: string }) {
  const { copied, copy } = useCopyToClipboard(DOCS_COPIED_TITLE);
  return (
    <Button
      size="xs"
      variant="outline"
      aria-label={label}
      data-copied={copied ? 'true' : 'false'}
      onClick={() => void copy(value)}
    >
      {copied ? <Check /> : <Copy />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

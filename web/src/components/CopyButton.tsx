import { IconButton } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useCopyToClipboard } from '../lib/clipboard.ts';

interface Props {
  value: string;
  /** Accessible name of the button, e.g. 'Copy API key'. */
  label: string;
  /** Title of the success toast, e.g. 'API Key Copied'. */
  copiedTitle: string;
}

/** Copies `value` to the clipboard; a check mark stands in for the copy icon for 2 s afterwards. */
export function CopyButton({ value, label, copiedTitle }: Props) {
  const { copied, copy } = useCopyToClipboard(copiedTitle);
  return (
    <IconButton aria-label={label} variant="outline" onClick={() => void copy(value)}>
      {copied ? <Check /> : <Copy />}
    </IconButton>
  );
}

import { IconButton } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { COPY_FEEDBACK_MS } from '@moonrelay/contract/constants';
import { notify } from '../../../lib/toaster.tsx';

interface Props {
  value: string;
  /** Accessible name of the button, e.g. 'Copy API key'. */
  label: string;
  /** Title of the success toast, e.g. 'API Key Copied'. */
  copiedTitle: string;
}

/** Copies `value` to the clipboard; a check mark stands in for the copy icon for 2 s afterwards. */
export function CopyButton({ value, label, copiedTitle }: Props) {
  const [copied, setCopied] = useState(false);
  const reset = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(reset.current), []);

  const copy = async () => {
    try {
      // The Clipboard API exists only in secure contexts (https or localhost) and may be refused.
      if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(value);
    } catch {
      notify({
        type: 'error',
        title: 'Copy Failed',
        description: 'Your browser did not allow copying. Select the text and copy it manually.',
      });
      return;
    }
    notify({ title: copiedTitle });
    setCopied(true);
    clearTimeout(reset.current);
    reset.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  };

  return (
    <IconButton aria-label={label} variant="outline" onClick={() => void copy()}>
      {copied ? <Check /> : <Copy />}
    </IconButton>
  );
}

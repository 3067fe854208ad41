import { useEffect, useRef, useState } from 'react';
import { COPY_FEEDBACK_MS } from '@moonrelay/contract/constants';
import { notify } from './toaster.tsx';

/**
 * Copies text and toasts `copiedTitle`; `copied` stays true for 2 s afterwards (spec section 9) so
 * the button can show a check mark. A refused copy says how to copy by hand instead.
 */
export function useCopyToClipboard(copiedTitle: string) {
  const [copied, setCopied] = useState(false);
  const reset = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(reset.current), []);

  const copy = async (value: string) => {
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

  return { copied, copy };
}

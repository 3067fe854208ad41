import { useEffect, useRef, useState } from 'react';

/**
 * For an action that takes away the control that had the focus (a removed member's row, a revoked
 * invitation): the focus would fall back to the start of the page, and a keyboard would have to
 * find its way again. `refocus()` moves it to `target` (a list with tabIndex -1) once the screen
 * has been drawn without that control.
 */
export function useRefocus<T extends HTMLElement>() {
  const target = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0) return;
    // A task later: a confirmation closing in the same render still traps the focus until its
    // effects have run, and would pull it back into itself.
    const timer = setTimeout(() => target.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [asked]);
  return { target, refocus: () => setAsked((count) => count + 1) };
}

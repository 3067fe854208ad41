import { useCallback, useEffect, useRef } from 'react';

/**
 * A stable function that calls the latest `run` once `ms` have passed without another call; a call
 * still waiting when the component goes away is dropped.
 */
export function useDebouncedCallback<Args extends unknown[]>(run: (...args: Args) => void, ms: number) {
  const latest = useRef(run);
  latest.current = run;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (...args: Args) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => latest.current(...args), ms);
    },
    [ms],
  );
}

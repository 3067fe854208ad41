import type { Logger } from '../../logger.ts';
import type { RestrictionOutcome } from './restrictions.ts';

export type OutcomeListener = (actionId: string, outcome: RestrictionOutcome) => Promise<void> | void;

/**
 * Where the Open Cloud queue tells what Roblox did with each update: whoever queued it (the
 * moderation actions) listens here. A listener that throws makes the outcome be told again by the
 * next sweep, so a listener must accept the same outcome twice.
 */
export function createRestrictionOutcomes(logger: Logger) {
  const listeners = new Set<OutcomeListener>();
  return {
    listen(listener: OutcomeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async tell(actionId: string, outcome: RestrictionOutcome): Promise<void> {
      logger.info({ actionId, outcome: outcome.state }, 'open cloud restriction update settled');
      for (const listener of listeners) await listener(actionId, outcome);
    },
  };
}

import type { CommandView } from '@moonrelay/contract/game';
import { NO_RESULT_ERROR } from '../game/commands.service.ts';

/** What a ban's or unban's command came to for each player it carried. */
export type GameOutcome =
  | { kind: 'retry' }
  | { kind: 'each'; outcome: (robloxUserId: string) => { state: 'applied' | 'failed'; error: string | null } };

export const NOT_REPORTED = 'The game server did not report this player';

/**
 * Reads a finished moderation command (docs/protocol.md, "Moderation"). A command that never ran
 * (expired undelivered, or taken by a server that died before answering) is sent again; a ban or
 * unban the game answered reports each player, `{ "applied": [ids], "failed": { "id": "Roblox's
 * error" } }` in its output; a command the game refused as a whole (banning switched off, a script
 * too old to know the command) fails every player it carried with the game's error.
 */
export function readGameOutcome(command: Pick<CommandView, 'status' | 'output' | 'error' | 'type'>): GameOutcome {
  if (command.status === 'expired' || (command.status === 'failed' && command.error === NO_RESULT_ERROR)) {
    return { kind: 'retry' };
  }
  if (command.status === 'failed') {
    const error = command.error || 'The game server reported a failure';
    return { kind: 'each', outcome: () => ({ state: 'failed', error }) };
  }
  if (command.type === 'kick' || command.type === 'warn') {
    return { kind: 'each', outcome: () => ({ state: 'applied', error: null }) };
  }
  const report = parseReport(command.output ?? '');
  if (!report) {
    return {
      kind: 'each',
      outcome: () => ({
        state: 'failed',
        error: `The game server's report could not be read: ${(command.output ?? '').slice(0, 200)}`,
      }),
    };
  }
  return {
    kind: 'each',
    outcome: (robloxUserId) => {
      const failure = report.failed.get(robloxUserId);
      if (failure !== undefined) return { state: 'failed', error: failure };
      if (report.applied.has(robloxUserId)) return { state: 'applied', error: null };
      return { state: 'failed', error: NOT_REPORTED };
    },
  };
}

function parseReport(output: string): { applied: Set<string>; failed: Map<string, string> } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { applied, failed } = value as { applied?: unknown; failed?: unknown };
  const appliedIds = new Set<string>();
  // Roblox's JSONEncode writes an empty table as [] and a list of numbers as an array.
  if (Array.isArray(applied)) for (const id of applied) if (typeof id === 'number') appliedIds.add(String(id));
  const failures = new Map<string, string>();
  if (failed !== null && typeof failed === 'object' && !Array.isArray(failed)) {
    for (const [id, error] of Object.entries(failed)) failures.set(String(Number(id)), String(error));
  }
  return { applied: appliedIds, failed: failures };
}

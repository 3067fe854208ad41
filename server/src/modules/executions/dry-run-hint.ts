import type { RunHint } from '@moonrelay/contract/executions';
import { RUN_HINTS } from '@moonrelay/contract/messages';

/**
 * The globals a dry run adds to the plain sandbox (lua/sandbox/dry-run/main.lua, minus what
 * lua/sandbox/prelude.lua already has): the ones where running the same code as a dry run gets
 * further. Left out: `require` (a dry run refuses it too), `setfenv`/`getfenv` (Luau's, not
 * Roblox's), `Players` and the other services (no globals in Roblox either: they come from `game`,
 * whose error is hinted). dry-run-hint.api.test.ts checks each is nil in the plain sandbox and set
 * in a dry run.
 */
export const DRY_RUN_GLOBALS: readonly string[] = [
  'game',
  'Game',
  'workspace',
  'Workspace',
  'script',
  'Instance',
  'Enum',
  'Vector3',
  'Vector2',
  'CFrame',
  'Color3',
  'UDim',
  'UDim2',
  'BrickColor',
  'Random',
  'TweenInfo',
  'NumberRange',
  'shared',
  'wait',
  'spawn',
  'delay',
  'tick',
  'time',
  'elapsedTime',
];

/** The plain sandbox's `task` has wait and spawn; a dry run's has these as well. */
const DRY_RUN_TASK_FUNCTIONS: readonly string[] = ['delay', 'defer', 'cancel', 'synchronize', 'desynchronize'];

/** Lua's words for a nil global the code used: "attempt to index a nil value (global 'Instance')". */
const NIL_GLOBAL = /a nil value \(global '([A-Za-z_][A-Za-z0-9_]*)'\)/g;
const NIL_FIELD = /attempt to call a nil value \(field '([A-Za-z_][A-Za-z0-9_]*)'\)/g;

/**
 * The hint for a plain sandbox run that failed on Roblox: the first Roblox global its errors name
 * (the run's error, or a spawned thread's error line in the output). A missing field counts only
 * as one of `task`'s and only when the code calls it so, since any table may lack a field `delay`.
 */
export function dryRunHint(code: string, error: string | null, output: string): RunHint | undefined {
  const texts = [error ?? '', ...output.split('\n').filter((line) => line.startsWith('error: '))];
  for (const text of texts) {
    for (const [, name] of text.matchAll(NIL_GLOBAL)) {
      if (DRY_RUN_GLOBALS.includes(name!)) return { kind: 'dry-run', global: name!, message: RUN_HINTS.dryRun(name!) };
    }
    for (const [, name] of text.matchAll(NIL_FIELD)) {
      if (DRY_RUN_TASK_FUNCTIONS.includes(name!) && new RegExp(`\\btask\\s*\\.\\s*${name}\\b`).test(code)) {
        const global = `task.${name}`;
        return { kind: 'dry-run', global, message: RUN_HINTS.dryRun(global) };
      }
    }
  }
  return undefined;
}

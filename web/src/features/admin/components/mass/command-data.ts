import { ADMIN_QUICK_SPEED, QUICK_TELEPORTS } from '@moonrelay/contract/constants';
import { GameCommandRequestSchema, type GameCommandRequest } from '@moonrelay/contract/game';

/** The command types Mass Execution offers (spec section 2). */
export const MASS_COMMAND_TYPES = ['teleport', 'heal', 'speed', 'reset'] as const;
export type MassCommandType = (typeof MASS_COMMAND_TYPES)[number];

/** What the JSON data box is filled with when a type is chosen (and the box is empty or untouched). */
export const DATA_TEMPLATES: Record<MassCommandType, string> = {
  teleport: JSON.stringify(QUICK_TELEPORTS.spawn),
  heal: '',
  speed: JSON.stringify({ speed: ADMIN_QUICK_SPEED }),
  reset: '',
};

export type CommandBuild = { ok: true; command: GameCommandRequest } | { ok: false; error: string };

/**
 * The command for `type` with the JSON typed as its data (spec section 5: command data is parsed as
 * JSON when present). Where the spec leaves a parse failure unhandled, it is said here, under the
 * box, and nothing is sent; so is data that does not fit the command (teleport needs x, y and z).
 */
export function buildCommand(type: MassCommandType, dataText: string): CommandBuild {
  let data: unknown;
  if (dataText.trim()) {
    try {
      data = JSON.parse(dataText);
    } catch (error) {
      return { ok: false, error: `Invalid JSON: ${(error as Error).message}` };
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      return { ok: false, error: 'The data must be a JSON object, such as {"speed": 50}.' };
    }
  }
  const parsed = GameCommandRequestSchema.safeParse(data === undefined ? { type } : { type, data });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.filter((part) => part !== 'data').join('.');
    const where = field ? `${field}: ` : '';
    return { ok: false, error: `The data does not fit ${type}: ${where}${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, command: parsed.data };
}

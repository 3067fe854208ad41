import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import {
  CATALOGUE_IMPORT_PREFIX,
  CATALOGUE_NAME,
  LOADER_CODE_THRESHOLD_CHARS,
  SCRIPT_NAME_MAX_LENGTH,
} from '@moonrelay/contract/constants';
import type { AutoExecuteGames, CreateScriptRequest } from '@moonrelay/contract/scripts';

/** Code longer than 10 000 characters travels as a temporary script and a loader (spec section 4). */
export const needsLoader = (code: string) => code.length > LOADER_CODE_THRESHOLD_CHARS;

/** 'ScriptBlox: {title}' (spec section 9), within the name's length limit. */
export const importedName = (title: string) => `${CATALOGUE_IMPORT_PREFIX}${title}`.slice(0, SCRIPT_NAME_MAX_LENGTH);

/**
 * The Roblox game a catalogue script is for: its catalogue game id when that is a Roblox id (digits;
 * the game's integration script matches auto-execute entries on place or universe id). A universal
 * script, or one whose game id is the catalogue's own, has none.
 */
export function robloxGameOf(script: CatalogueScript): { id: string; name: string; imageUrl: string | null } | null {
  const id = script.game._id;
  if (script.isUniversal || !id || !/^\d{1,20}$/.test(id)) return null;
  return { id, name: (script.game.name || `Game ${id}`).slice(0, 200), imageUrl: script.game.imageUrl };
}

/**
 * The script to create for an imported catalogue script: named 'ScriptBlox: {title}', with its game,
 * and for 'Save to Auto-Execute' on for that game (or for every game when it is universal or its
 * game is not known by a Roblox id). `code` is the source, or the loader that fetches a long one.
 */
export function importRequest(
  script: CatalogueScript,
  code: string,
  options: { autoExecute: boolean; viaLoader: boolean },
): CreateScriptRequest {
  const game = robloxGameOf(script);
  const imageUrl = game?.imageUrl && game.imageUrl.length <= 2048 ? game.imageUrl : null;
  let autoExecuteGames: AutoExecuteGames | undefined;
  if (options.autoExecute) {
    autoExecuteGames = game
      ? { [game.id]: { enabled: true, gameName: game.name, ...(imageUrl ? { gameImageUrl: imageUrl } : {}) } }
      : { all: { enabled: true } };
  }
  const description = options.viaLoader
    ? `Imported from ${CATALOGUE_NAME}. Longer than ${LOADER_CODE_THRESHOLD_CHARS} characters, so this is a loader that fetches the code from Moonrelay when it runs.`
    : `Imported from ${CATALOGUE_NAME}.`;
  return {
    name: importedName(script.title),
    description,
    code,
    isAutoExecute: options.autoExecute,
    ...(game ? { gameId: game.id, gameName: game.name, gameImageUrl: imageUrl } : {}),
    ...(autoExecuteGames ? { autoExecuteGames } : {}),
  };
}

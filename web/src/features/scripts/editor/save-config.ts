import type { AutoExecuteGames, CreateScriptRequest, Script } from '@moonrelay/contract/scripts';

/** A game a script can auto-execute in (spec section 3: id, name, imageUrl, universeId). */
export interface GameChoice {
  id: string;
  name: string;
  imageUrl?: string;
  universeId?: number;
}

export type AutoExecuteScope = 'all' | 'current' | 'specific';

export type GameConfig = Pick<CreateScriptRequest, 'gameId' | 'gameName' | 'gameImageUrl' | 'autoExecuteGames'>;

const ALL_GAMES = 'all';

const gameName = (id: string, name?: string | null) => name || `Game ${id}`;

/**
 * The distinct games of the user's scripts, in list order: each script's own game, then the games
 * of its auto-execute map ('all' is not a game).
 */
export function recentGames(scripts: readonly Script[]): GameChoice[] {
  const games = new Map<string, GameChoice>();
  const add = (id: string, name?: string | null, imageUrl?: string | null) => {
    const known = games.get(id);
    if (!known) games.set(id, { id, name: gameName(id, name), ...(imageUrl ? { imageUrl } : {}) });
    else if (!known.imageUrl && imageUrl) known.imageUrl = imageUrl;
  };
  for (const script of scripts) {
    if (script.gameId) add(script.gameId, script.gameName, script.gameImageUrl);
    for (const [id, entry] of Object.entries(script.autoExecuteGames ?? {})) {
      if (id !== ALL_GAMES) add(id, entry.gameName, entry.gameImageUrl);
    }
  }
  return [...games.values()];
}

/**
 * A typed game or universe id (spec section 5): used as the id, named 'Game {id}', universeId
 * parsed as an integer. Roblox ids are whole numbers, so anything else is no game.
 */
export function gameFromTypedId(input: string): GameChoice | null {
  const id = input.trim();
  if (!/^\d+$/.test(id)) return null;
  return { id, name: `Game ${id}`, universeId: Number.parseInt(id, 10) };
}

/** The script's own game, if it has one. */
export function gameOfScript(script: Pick<Script, 'gameId' | 'gameName' | 'gameImageUrl'> | null): GameChoice | null {
  if (!script?.gameId) return null;
  return {
    id: script.gameId,
    name: gameName(script.gameId, script.gameName),
    ...(script.gameImageUrl ? { imageUrl: script.gameImageUrl } : {}),
  };
}

/** Spec section 4: specific if the script has a game, else current if there is one, else all. */
export function initialScope(
  script: Pick<Script, 'gameId'> | null,
  currentGame: GameChoice | null | undefined,
): AutoExecuteScope {
  if (script?.gameId) return 'specific';
  if (currentGame) return 'current';
  return 'all';
}

/**
 * The game fields saved with auto-execute on: every game, or one game (which also becomes the
 * script's game). Choosing every game clears a game chosen before.
 */
export function gameConfig(game: GameChoice | null): GameConfig {
  if (!game) {
    return {
      gameId: null,
      gameName: null,
      gameImageUrl: null,
      autoExecuteGames: { [ALL_GAMES]: { enabled: true } },
    };
  }
  const entry: AutoExecuteGames[string] = { enabled: true, gameName: game.name };
  if (game.imageUrl) entry.gameImageUrl = game.imageUrl;
  return {
    gameId: game.id,
    gameName: game.name,
    gameImageUrl: game.imageUrl ?? null,
    autoExecuteGames: { [game.id]: entry },
  };
}

/**
 * Where a saved auto-execute script runs now, in words: 'all games' (no map, an empty one, or
 * `all` enabled, as the integration script reads it) or the names of its enabled games. Null for a
 * script that does not auto-execute.
 */
export function autoExecuteGamesText(
  script: Pick<Script, 'isAutoExecute' | 'autoExecuteGames'> | null | undefined,
): string | null {
  if (!script?.isAutoExecute) return null;
  const entries = Object.entries(script.autoExecuteGames ?? {});
  if (entries.length === 0 || script.autoExecuteGames?.[ALL_GAMES]?.enabled) return 'all games';
  const names = entries.filter(([, entry]) => entry.enabled).map(([id, entry]) => gameName(id, entry.gameName));
  if (names.length === 0) return 'no game';
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

import type { CatalogueGame, CataloguePage, CatalogueScript } from '@moonrelay/contract/catalogue';
import { findExecutorFunctions } from './executor-functions.ts';
import { shownImageUrl } from '../../http/image-sources.ts';

/**
 * The catalogue's answers in one shape. ScriptBlox's sources differ on field names
 * (`universal`/`isUniversal`, `patched`/`isPatched`, `keySystem`/`key`, `game._id`/`game.gameId`)
 * and give images either absolute or as `/images/...` paths on the catalogue's own host; either is
 * accepted, and the answer has one spelling and absolute URLs. An entry without an id or a title is
 * dropped rather than failing its page; anything that is not a list answer at all is an error.
 */

export class MalformedAnswerError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
};

const flag = (...values: unknown[]): boolean => {
  for (const value of values) {
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === 'true' || value === '1') return true;
    if (value === 0 || value === 'false' || value === '0') return false;
  }
  return false;
};

const count = (value: unknown): number => {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? Math.floor(number) : 0;
};

const wholeNumber = (value: unknown): number | null => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : null;
};

/** An absolute URL on Roblox's CDN or the catalogue's site as it is; a `/images/...` path on the catalogue's host; anything else, none. */
export function absoluteImageUrl(value: unknown, siteUrl: string): string | null {
  if (typeof value !== 'string' || value === '') return null;
  // Only where the page's Content-Security-Policy lets it load an image from (image-sources.ts).
  if (/^https?:\/\//i.test(value)) return shownImageUrl(value, { catalogueSiteUrl: siteUrl });
  if (value.startsWith('/images/')) return `${siteUrl}${value}`;
  return null;
}

function normalizeGame(value: unknown, siteUrl: string): CatalogueGame {
  const game = isObject(value) ? value : {};
  return {
    _id: text(game._id) ?? text(game.gameId),
    name: text(game.name)?.trim() ?? '',
    imageUrl: absoluteImageUrl(game.imageUrl, siteUrl),
    universeId: wholeNumber(game.universeId),
  };
}

export function normalizeScript(value: unknown, siteUrl: string): CatalogueScript | null {
  if (!isObject(value)) return null;
  const id = text(value._id);
  const title = text(value.title)?.trim();
  if (!id || !title) return null;
  const code = typeof value.script === 'string' ? value.script : '';
  return {
    _id: id,
    title,
    game: normalizeGame(value.game, siteUrl),
    image: absoluteImageUrl(value.image, siteUrl),
    views: count(value.views),
    verified: flag(value.verified),
    isUniversal: flag(value.isUniversal, value.universal),
    isPatched: flag(value.isPatched, value.patched),
    keySystem: flag(value.keySystem, value.key),
    createdAt: text(value.createdAt),
    executorFunctions: code ? findExecutorFunctions(code) : [],
  };
}

/**
 * A list answer: `{ result: { scripts, totalPages?, nextPage?, max? } }` (search answers may carry
 * only totalPages; trending none). Without a next page from upstream, it is the page after this
 * one while there are more pages.
 */
export function normalizePage(body: unknown, siteUrl: string, page: number): CataloguePage['result'] {
  const result = isObject(body) && isObject(body.result) ? body.result : undefined;
  if (!result || !Array.isArray(result.scripts)) throw new MalformedAnswerError('not a catalogue list answer');
  const scripts = result.scripts
    .map((entry) => normalizeScript(entry, siteUrl))
    .filter((script): script is CatalogueScript => script !== null);
  const totalPages = wholeNumber(result.totalPages) ?? (scripts.length > 0 ? page : 0);
  const upstreamNext = wholeNumber(result.nextPage);
  const nextPage = upstreamNext !== null && upstreamNext > page ? upstreamNext : page < totalPages ? page + 1 : null;
  return { scripts, totalPages, nextPage };
}

/** `GET /script/{id}` answers `{ script: { ..., script: "<code>" } }`; the code, or null when it has none. */
export function codeOfScriptAnswer(body: unknown): string | null {
  const script = isObject(body) && isObject(body.script) ? body.script : undefined;
  return typeof script?.script === 'string' && script.script.trim() !== '' ? script.script : null;
}

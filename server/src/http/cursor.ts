import { AppError } from './app-error.ts';

/**
 * A page's cursor: the last row's sort key (a time) and id, base64url of JSON, opaque to callers.
 * Lists ordered newest first by (time, id) answer the next page after it, so a page never repeats
 * or skips a row however many are added meanwhile.
 */
export const encodeCursor = (time: string, id: string): string =>
  Buffer.from(JSON.stringify([time, id])).toString('base64url');

/** The cursor's time and id; undefined without one; a 400 with `invalid` for one this list never answered. */
export function decodeCursor(cursor: string | undefined, invalid: string): { time: string; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return { time: value[0] as string, id: value[1] as string };
    }
  } catch {
    // Falls through to the 400.
  }
  throw new AppError(400, invalid);
}

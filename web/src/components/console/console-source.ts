import type { ConsoleDrop, ConsoleLine, ConsolePage } from '@moonrelay/contract/console';
import { ALL_LEVELS, type ConsoleFilter } from './console-feed.ts';

/** Lines asked for at a time: the newest page on load and on each poll, and each older page. */
export const CONSOLE_PAGE_SIZE = 200;

/** New lines and drops of this console's user, as the live socket brings them (oldest first). */
export interface ConsoleLiveBatch {
  lines: readonly ConsoleLine[];
  drops: readonly ConsoleDrop[];
}

/** Where a console view gets its lines: one user's console, seen by that user or by an admin. */
export interface ConsoleSource {
  /** The start of the newest page's query key (its GET path); the filter follows it. */
  queryKey: readonly unknown[];
  /** A page, newest first: the newest with `cursor` null, else the one `cursor` starts. */
  fetchPage(filter: ConsoleFilter, cursor: string | null): Promise<ConsolePage>;
  /** Live lines, when the viewer gets them pushed; answers the unsubscribe. Keep it stable. */
  subscribe?(listener: (batch: ConsoleLiveBatch) => void): () => void;
  /** The push is up now. While it is not (or there is none), the newest page is polled. */
  live: boolean;
  pollMs: number;
}

/** `?serverId=&level=&q=&cursor=&limit=` of GET .../console for a filter (ConsoleQuerySchema). */
export function consoleSearch(filter: ConsoleFilter, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filter.serverId !== null) params.set('serverId', filter.serverId);
  if (filter.levels.length < ALL_LEVELS.length) params.set('level', filter.levels.join(','));
  if (filter.q) params.set('q', filter.q);
  if (cursor !== null) params.set('cursor', cursor);
  params.set('limit', String(CONSOLE_PAGE_SIZE));
  return `?${params.toString()}`;
}

/** The part of the query key that names a filter. */
export const filterKeyOf = (filter: ConsoleFilter) =>
  ({ serverId: filter.serverId, levels: filter.levels.join(','), q: filter.q }) as const;

/** The server select's limit and words, apart from its component so browser checks can read them. */

/**
 * A select lists at most this many game servers. A hit game has thousands live at once: five
 * thousand options made the dashboard 10,000 elements bigger, and every style recalculation (the
 * phone's menu opening) took half a second. Past this many, a search field finds the others.
 */
export const SERVER_CHOICES_SHOWN = 50;

export interface ServerChoice {
  serverId: string;
  /** What the option says, e.g. "a4f0c3c2… · builderman". */
  label: string;
}

export const SERVER_SELECT_TEXT = {
  /** Names the search by the select's own label, as a screen may have two (the dashboard does). */
  find: (label: string) => `Find a ${label.toLowerCase()}`,
  findPlaceholder: 'JobId or player',
  shown: (shown: number, total: number) =>
    `${shown.toLocaleString('en')} of ${total.toLocaleString('en')} servers listed: type part of a JobId or a player's name to find another.`,
  none: (total: number) => `None of the ${total.toLocaleString('en')} servers matches.`,
} as const;

import { Input } from '@chakra-ui/react';
import { useState } from 'react';
import type { OnlinePlayersFilter } from '../api/players.ts';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback.ts';

/** The list is asked for again this long after the typing stops, not on every key. */
export const FILTER_DEBOUNCE_MS = 200;

/**
 * The search and server fields of the online list. Each keeps its own text, so a key pressed
 * redraws the field alone; the list hears of the filter once the typing pauses.
 */
export function PlayerFilters({
  searchLabel,
  serverLabel,
  onChange,
}: {
  searchLabel: string;
  serverLabel: string;
  onChange(filter: OnlinePlayersFilter): void;
}) {
  const [filter, setFilter] = useState<OnlinePlayersFilter>({ q: '', serverId: '' });
  const report = useDebouncedCallback(onChange, FILTER_DEBOUNCE_MS);
  const change = (next: OnlinePlayersFilter) => {
    setFilter(next);
    report(next);
  };

  return (
    <>
      <Input
        flex="2 1 16rem"
        type="search"
        aria-label={searchLabel}
        placeholder={searchLabel}
        value={filter.q}
        maxLength={100}
        onChange={(event) => change({ ...filter, q: event.target.value })}
      />
      <Input
        flex="1 1 10rem"
        aria-label={serverLabel}
        placeholder={serverLabel}
        value={filter.serverId}
        maxLength={100}
        onChange={(event) => change({ ...filter, serverId: event.target.value })}
      />
    </>
  );
}

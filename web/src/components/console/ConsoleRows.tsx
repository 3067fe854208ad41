import { useCallback, useState, type ReactNode } from 'react';
import type { ConsoleEntry } from './console-feed.ts';
import { ConsoleEntryRow, type LineLinks } from './ConsoleLineRow.tsx';
import { CONSOLE_HEAD_PX, type ConsoleVirtualizer } from './useConsoleVirtualizer.ts';

interface Props {
  virtualizer: ConsoleVirtualizer;
  entries: readonly ConsoleEntry[];
  /** What lies before the oldest line (older lines to load, the limit's note); null for nothing. */
  head: ReactNode;
  showServer: boolean;
  links: LineLinks;
}

/**
 * The rows of the log that are on screen. Each sits in a slot the virtual list places and measures
 * (the slot takes the position; console-styles.ts lays it out), so a row's own props stay the same
 * while the log scrolls and its memo holds.
 */
export function ConsoleRows({ virtualizer, entries, head, showServer, links }: Props) {
  const [openStacks, setOpenStacks] = useState<ReadonlySet<string>>(() => new Set());
  const toggleStack = useCallback(
    (key: string) =>
      setOpenStacks((open) => {
        const next = new Set(open);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  return (
    <div className="console-rows" style={{ height: virtualizer.getTotalSize() }}>
      {head !== null && (
        <div className="console-head" style={{ height: CONSOLE_HEAD_PX }}>
          {head}
        </div>
      )}
      {virtualizer.getVirtualItems().map((item) => {
        const entry = entries[item.index];
        return (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="console-slot"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {entry && (
              <ConsoleEntryRow
                entry={entry}
                showServer={showServer}
                links={links}
                stackOpen={openStacks.has(entry.key)}
                onToggleStack={toggleStack}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

import { ChevronDown, ChevronRight, ExternalLink, FileCode, TriangleAlert } from 'lucide-react';
import { memo, useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ConsoleLine } from '@moonrelay/contract/console';
import { shortId } from '../../lib/format.ts';
import { dropText, gapText, lineClock, lineDateTime } from './console-format.ts';
import type { ConsoleEntry } from './console-feed.ts';
import { savedScriptPlace, type ScriptRef } from './script-line.ts';

/**
 * One entry of the console. Every text from a game is a React text child, so it is always shown as
 * text (escaped), never read as HTML. Rows are plain elements styled by the log (console-styles.ts)
 * and memoized by their entry: a new line renders one row, not the hundreds before it. Whether a
 * stack is open is kept by the log, not the row: a row scrolled out of the virtual list is gone,
 * and comes back as the reader left it.
 */

/** What an error line may link to. */
export interface LineLinks {
  /** Saved scripts whose lines an error may name (the editor opens there); empty for none. */
  scripts: readonly ScriptRef[];
  /** Link lines of code Moonrelay ran to their run (/runs?id=). */
  runs: boolean;
}

function Time({ iso }: { iso: string }) {
  return (
    <time className="console-time" dateTime={iso} title={lineDateTime(iso)}>
      {lineClock(iso)}
    </time>
  );
}

function LinksOf({ line, links }: { line: ConsoleLine; links: LineLinks }) {
  const place = line.level === 'error' ? savedScriptPlace(line, links.scripts) : null;
  const run = links.runs && line.executionId;
  if (!place && !run) return null;
  return (
    <span className="console-links">
      {run && (
        <RouterLink className="console-link" to={`/runs?id=${encodeURIComponent(line.executionId!)}`}>
          <ExternalLink size={12} aria-hidden /> Open run
        </RouterLink>
      )}
      {place && (
        <RouterLink
          className="console-link"
          to={`/editor?id=${encodeURIComponent(place.script.id)}&line=${place.line}`}
        >
          <FileCode size={12} aria-hidden /> {place.script.name}, line {place.line}
        </RouterLink>
      )}
    </span>
  );
}

interface LineProps {
  line: ConsoleLine;
  showServer: boolean;
  links: LineLinks;
  stackOpen: boolean;
  onToggleStack(): void;
}

function Notice({ iso, children }: { iso?: string; children: ReactNode }) {
  return (
    <div className="console-row" data-tone="warning" data-testid="console-drop">
      {iso && <Time iso={iso} />}
      <span className="console-notice">
        <TriangleAlert size={12} aria-hidden /> {children}
      </span>
    </div>
  );
}

function PrintedLine({ line, showServer, links, stackOpen, onToggleStack }: LineProps) {
  const stackId = useId();
  const tone = line.level === 'error' ? 'error' : line.level === 'warning' ? 'warning' : undefined;
  return (
    <div
      className="console-row"
      data-testid="console-line"
      data-level={line.level}
      data-tone={tone}
      data-own={line.own || undefined}
    >
      <Time iso={line.time} />
      <span className="console-level">{line.level}</span>
      {showServer && (
        <span className="console-server" title={line.serverId}>
          {shortId(line.serverId)}
        </span>
      )}
      <span className="console-text" data-testid="console-line-text">
        {line.text}
      </span>
      {line.stack && (
        <button
          type="button"
          className="console-toggle"
          aria-expanded={stackOpen}
          aria-controls={stackId}
          onClick={onToggleStack}
        >
          {stackOpen ? <ChevronDown size={12} aria-hidden /> : <ChevronRight size={12} aria-hidden />} Stack
        </button>
      )}
      <LinksOf line={line} links={links} />
      {line.stack && stackOpen && (
        <pre className="console-stack" id={stackId} data-testid="console-line-stack">
          {line.stack}
        </pre>
      )}
    </div>
  );
}

export const ConsoleEntryRow = memo(function ConsoleEntryRow({
  entry,
  showServer,
  links,
  stackOpen,
  onToggleStack,
}: {
  entry: ConsoleEntry;
  showServer: boolean;
  links: LineLinks;
  stackOpen: boolean;
  /** Stable across renders (it takes the entry's key), so the memo holds. */
  onToggleStack(key: string): void;
}) {
  if (entry.kind === 'drop') {
    return <Notice iso={entry.drop.time}>{dropText(entry.drop, shortId(entry.drop.serverId))}</Notice>;
  }
  if (entry.kind === 'gap') return <Notice>{gapText(entry.count)}</Notice>;
  const { line } = entry;
  // Where lines were lost, the API keeps a marker line in their place (its text says how many and why).
  if (line.dropped) {
    return <Notice iso={line.time}>{showServer ? `${shortId(line.serverId)}: ${line.text}` : line.text}</Notice>;
  }
  return (
    <PrintedLine
      line={line}
      showServer={showServer}
      links={links}
      stackOpen={stackOpen}
      onToggleStack={() => onToggleStack(entry.key)}
    />
  );
});

import { Box, defineStyle, IconButton, Text } from '@chakra-ui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Play } from 'lucide-react';
import { memo, useCallback, useRef } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import type { Can } from '../../../lib/team-access.ts';
import { GAME_ACTIONS } from '../game-text.ts';

interface Props {
  /** The user's scripts; undefined while they load. */
  scripts: readonly Script[] | undefined;
  failed: boolean;
  /** Whether the member's role may read the scripts: the list is not asked for otherwise, and says why. */
  read: Can;
  disabled: boolean;
  /** Why running is not allowed, as the disabled run buttons' title. */
  reason?: string;
  onRun(script: Script): void;
}

/** The list area's height (spec section 9: a 200px scroll area). */
const AREA_HEIGHT = 200;
/**
 * Three rows and their gaps fill the 200px exactly, so the area never shows a row cut in half; a
 * fourth row starts just below its edge and scrolls in whole.
 */
const ROW_HEIGHT = 60;
const ROW_GAP = 10;
const rowStride = () => ROW_HEIGHT + ROW_GAP;
/** Rows drawn past each edge of the area, so Tab has a next run button to reach. */
const OVERSCAN = 3;

/**
 * How a row looks, declared once for the list: an account with a thousand scripts drew a thousand
 * rows of style props here, a second of work on a slowed phone each time the dashboard opened or
 * closed. Now only the rows in view are drawn, and they carry no style props of their own.
 */
const EXECUTOR_ROWS_CSS = defineStyle({
  '& li[data-index]': {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '3',
    borderWidth: '1px',
    borderRadius: 'md',
    px: '3',
    py: '1.5',
    height: `${ROW_HEIGHT}px`,
    marginBottom: `${ROW_GAP}px`,
  },
  '& .executor-script-text': { display: 'flex', flexDirection: 'column', minWidth: 0 },
  '& .executor-script-name, & .executor-script-description': {
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .executor-script-name': { fontWeight: 'medium' },
  '& .executor-script-description': { fontSize: 'sm', color: 'fg.muted' },
});

/** The user's scripts in a 200px scroll area (spec section 9), each with a run button. */
export function ExecutorScriptList({ scripts, failed, read, disabled, reason, onRun }: Props) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const list = scripts ?? [];
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: rowStride,
    getItemKey: useCallback((index: number) => list[index]!.id, [list]),
    overscan: OVERSCAN,
  });

  let content;
  if (!read.allowed) {
    content = <PermissionNotes notes={[{ action: GAME_ACTIONS.scripts, can: read }]} />;
  } else if (list.length > 0) {
    // Until the area has been measured (and where nothing lays it out, as in jsdom), the rows
    // that fit its known height are drawn.
    const measured = virtualizer.getVirtualItems();
    const indexes = measured.length
      ? measured.map((item) => item.index)
      : Array.from({ length: Math.min(list.length, Math.ceil(AREA_HEIGHT / rowStride()) + OVERSCAN) }, (_, i) => i);
    const before = measured[0]?.start ?? 0;
    const end = measured.at(-1)?.end ?? indexes.length * rowStride();
    const after = virtualizer.getTotalSize() - end;
    content = (
      <Box as="ul" listStyleType="none" pe="2" css={EXECUTOR_ROWS_CSS}>
        {before > 0 && <li aria-hidden style={{ height: before }} />}
        {indexes.map((index) => {
          const script = list[index]!;
          return (
            <ExecutorRow
              key={script.id}
              script={script}
              index={index}
              setSize={list.length}
              disabled={disabled}
              reason={reason}
              onRun={onRun}
            />
          );
        })}
        {after > 0 && <li aria-hidden style={{ height: after }} />}
      </Box>
    );
  } else if (scripts) {
    content = <Text color="fg.muted">No scripts yet. Create your first script to get started.</Text>;
  } else if (failed) {
    content = <Text color="fg.error">Your scripts could not be loaded.</Text>;
  } else {
    content = <Text color="fg.muted">Loading scripts...</Text>;
  }

  return (
    <Box ref={scroller} height={`${AREA_HEIGHT}px`} overflowY="auto" data-testid="executor-scripts">
      {content}
    </Box>
  );
}

const ExecutorRow = memo(function ExecutorRow(props: {
  script: Script;
  index: number;
  setSize: number;
  disabled: boolean;
  reason?: string;
  onRun(script: Script): void;
}) {
  const { script, index, setSize, disabled, reason, onRun } = props;
  return (
    <li data-index={index} aria-posinset={index + 1} aria-setsize={setSize}>
      <span className="executor-script-text">
        <span className="executor-script-name">{script.name}</span>
        <span className="executor-script-description">{script.description || 'No description'}</span>
      </span>
      <IconButton
        aria-label={`Run ${script.name}`}
        size="sm"
        variant="ghost"
        colorPalette="green"
        disabled={disabled}
        title={reason}
        onClick={() => onRun(script)}
      >
        <Play />
      </IconButton>
    </li>
  );
});

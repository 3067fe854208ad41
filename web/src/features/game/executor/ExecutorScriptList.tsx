import { Box, defineStyle, IconButton, Text } from '@chakra-ui/react';
import { Play } from 'lucide-react';
import { memo } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
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
const scriptId = (script: Script) => script.id;
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
  const list = scripts ?? [];
  // The box is no tab stop of its own: Tab reaches each drawn row's run button, which scrolls it
  // into view. Until the area is laid out (and in jsdom), the rows its 200px hold are drawn.
  const { scrollerRef, drawn, before, after } = useRowsInView(list, {
    keyOf: scriptId,
    estimateSize: rowStride,
    overscan: OVERSCAN,
    screenful: AREA_HEIGHT,
  });

  let content;
  if (!read.allowed) {
    content = <PermissionNotes notes={[{ action: GAME_ACTIONS.scripts, can: read }]} />;
  } else if (list.length > 0) {
    content = (
      <Box as="ul" listStyleType="none" pe="2" css={EXECUTOR_ROWS_CSS}>
        {before > 0 && <li aria-hidden style={{ height: before }} />}
        {drawn.map(({ index }) => {
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
    <Box ref={scrollerRef} height={`${AREA_HEIGHT}px`} overflowY="auto" data-testid="executor-scripts">
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

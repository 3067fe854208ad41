import { Box, Button, defineStyle, Flex, Heading, HStack, SimpleGrid, Text } from '@chakra-ui/react';
import { Copy, Pencil, Play, Trash2 } from 'lucide-react';
import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { ScriptSummary } from '@moonrelay/contract/scripts';
import { usePagedRows } from '../../../lib/paged-rows.ts';
import { LastModified } from './LastModified.tsx';
import { ScriptTypeBadge } from './ScriptTypeBadge.tsx';
import { DeleteScriptDialog, useScriptActions, type ScriptListCan } from './script-actions.tsx';
import { scriptId, type ScriptListProps } from './ScriptsTable.tsx';

/**
 * A card's height before it is measured (a two-line description, the actions in two rows, and
 * the space below it); each drawn card is then measured, as its text may wrap differently.
 */
export const SCRIPT_CARD_ESTIMATE = 200;
/** Cards drawn past each edge of the view, so Tab has a next card to reach. */
const OVERSCAN = 3;
const cardEstimate = () => SCRIPT_CARD_ESTIMATE;

/** How a card looks, declared once for the whole list; a card says what it is in data attributes. */
const SCRIPT_CARDS_CSS = defineStyle({
  '& li[data-index]': { paddingBottom: '3' },
  '& .script-card': { borderWidth: '1px', borderRadius: 'l2', padding: '3' },
  '& li[data-busy] .script-card': { opacity: 0.7 },
  '& .script-description': { fontSize: 'sm', color: 'fg.muted', wordBreak: 'break-word' },
});

/**
 * My Scripts below the md breakpoint: one card per script, everything in view without scrolling
 * sideways, and the actions named in words (a touch screen shows no tooltips) in reading and Tab
 * order: Edit, Execute, Duplicate, Delete. Only the cards in view are drawn; space stands in for
 * the others, and the next page comes as the end of the loaded cards comes into view.
 */
export function ScriptCards({ scripts, emptyText, can, more, loadAhead, onNeedMore }: ScriptListProps) {
  const { scrollerRef, tabIndex, measure, drawn, before, after } = usePagedRows(
    scripts,
    { keyOf: scriptId, estimateSize: cardEstimate, overscan: OVERSCAN },
    { more, loadAhead, onNeedMore },
  );

  if (scripts.length === 0) {
    return (
      <Text py="10" textAlign="center" color="fg.muted">
        {emptyText}
      </Text>
    );
  }
  return (
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label="Script cards"
      maxH="min(70vh, 42rem)"
      overflow="auto"
      overflowAnchor="none"
      focusVisibleRing="inside"
      data-testid="scripts-scroller"
    >
      <Box as="ul" aria-label="Scripts" listStyleType="none" css={SCRIPT_CARDS_CSS}>
        {before > 0 && <li aria-hidden data-spacer style={{ height: before }} />}
        {drawn.map(({ index }) => {
          const script = scripts[index]!;
          return (
            <ScriptCard
              key={script.id}
              script={script}
              index={index}
              // Unknown (-1) while more pages remain.
              setSize={more ? -1 : scripts.length}
              can={can}
              measure={measure}
            />
          );
        })}
        {after > 0 && <li aria-hidden data-spacer style={{ height: after }} />}
      </Box>
    </Box>
  );
}

const ScriptCard = memo(function ScriptCard({
  script,
  index,
  setSize,
  can,
  measure,
}: {
  script: ScriptSummary;
  /** The script's place in the whole list (0 for the first). */
  index: number;
  setSize: number;
  can: ScriptListCan;
  /** Measures the drawn card (its text may wrap to more or fewer lines than estimated). */
  measure(element: HTMLElement | null): void;
}) {
  const actions = useScriptActions(script);
  const { busy } = actions;
  const editPath = `/editor?id=${encodeURIComponent(script.id)}`;
  return (
    <li
      ref={measure}
      data-index={index}
      data-busy={busy || undefined}
      aria-busy={busy || undefined}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      data-testid="script-card"
    >
      <Box className="script-card">
        <Flex justify="space-between" align="flex-start" gap="3">
          <Box minW="0">
            <Heading as="h2" size="sm" truncate>
              {script.name}
            </Heading>
            <Text className="script-description" lineClamp="2">
              {script.description || 'No description'}
            </Text>
          </Box>
          <ScriptTypeBadge isAutoExecute={script.isAutoExecute} />
        </Flex>
        <HStack gap="2" mt="1" fontSize="sm" color="fg.muted" wrap="wrap">
          <LastModified iso={script.updatedAt} />
          <span aria-hidden>·</span>
          <Text data-testid="script-card-executions">
            {script.executionCount.toLocaleString('en')} {script.executionCount === 1 ? 'execution' : 'executions'}
          </Text>
        </HStack>
        <SimpleGrid columns={2} gap="2" mt="3">
          {/* A link cannot be disabled, so a busy edit action is a disabled button. */}
          {busy ? (
            <Button size="sm" variant="outline" disabled>
              <Pencil /> Edit
            </Button>
          ) : (
            <Button asChild size="sm" variant="outline">
              <Link to={editPath}>
                <Pencil /> Edit
              </Link>
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            colorPalette="green"
            disabled={busy || !can.run.allowed}
            title={can.run.reason}
            onClick={actions.run}
          >
            <Play /> Execute
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={busy || !can.change.allowed}
            title={can.change.reason}
            onClick={actions.duplicate}
          >
            <Copy /> Duplicate
          </Button>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            disabled={busy || !can.change.allowed}
            title={can.change.reason}
            onClick={actions.askToDelete}
          >
            <Trash2 /> Delete
          </Button>
        </SimpleGrid>
        <DeleteScriptDialog script={script} actions={actions} />
      </Box>
    </li>
  );
});

import { Box, Grid, HStack, Text } from '@chakra-ui/react';
import { Fragment, useMemo } from 'react';
import { useNarrowScreen } from '../narrow-screen.ts';
import { foldUnchanged, sideBySide, type DiffCell, type DiffRow } from './side-by-side.ts';

const SIDE_COLORS: Record<DiffRow['kind'], { left: string; right: string }> = {
  same: { left: 'transparent', right: 'transparent' },
  changed: { left: 'red.subtle', right: 'green.subtle' },
  removed: { left: 'red.subtle', right: 'bg.muted' },
  added: { left: 'bg.muted', right: 'green.subtle' },
};

/** What a side's cell says to a screen reader besides its text. */
const MARK: Record<DiffRow['kind'], { left: string; right: string }> = {
  same: { left: '', right: '' },
  changed: { left: 'removed', right: 'added' },
  removed: { left: 'removed', right: '' },
  added: { left: '', right: 'added' },
};

function Cell({ cell, background, mark }: { cell: DiffCell | null; background: string; mark: string }) {
  return (
    <>
      <Box bg={background} color="fg.muted" textAlign="right" px="2" userSelect="none" aria-hidden>
        {cell?.number ?? ''}
      </Box>
      <Box bg={background} px="2" whiteSpace="pre" aria-label={cell && mark ? `${mark}: ${cell.text}` : undefined}>
        {cell?.text ?? ''}
      </Box>
    </>
  );
}

interface Props {
  older: { label: string; code: string };
  newer: { label: string; code: string };
}

/** A row of the one-column view: a line of one side (or both, unchanged) with both its numbers. */
function UnifiedLine(props: {
  left: number | null;
  right: number | null;
  text: string;
  background: string;
  mark: string;
}) {
  return (
    <>
      <Box bg={props.background} color="fg.muted" textAlign="right" px="1.5" userSelect="none" aria-hidden>
        {props.left ?? ''}
      </Box>
      <Box bg={props.background} color="fg.muted" textAlign="right" px="1.5" userSelect="none" aria-hidden>
        {props.right ?? ''}
      </Box>
      <Box
        bg={props.background}
        px="2"
        whiteSpace="pre"
        aria-label={props.mark ? `${props.mark}: ${props.text}` : undefined}
      >
        {props.text}
      </Box>
    </>
  );
}

/** One diff row in the one-column view: a changed line is its old line, then its new one. */
function UnifiedRow({ row }: { row: DiffRow }) {
  if (row.kind === 'same')
    return (
      <UnifiedLine
        left={row.left!.number}
        right={row.right!.number}
        text={row.left!.text}
        background="transparent"
        mark=""
      />
    );
  return (
    <>
      {row.left && (
        <UnifiedLine left={row.left.number} right={null} text={row.left.text} background="red.subtle" mark="removed" />
      )}
      {row.right && (
        <UnifiedLine
          left={null}
          right={row.right.number}
          text={row.right.text}
          background="green.subtle"
          mark="added"
        />
      )}
    </>
  );
}

/**
 * Two versions' code side by side: the older on the left, the newer on the right, changed lines
 * tinted, long unchanged stretches folded. Text only: nothing of a script is ever rendered as HTML.
 */
export function VersionDiff({ older, newer }: Props) {
  const diff = useMemo(() => sideBySide(older.code, newer.code), [older.code, newer.code]);
  const narrow = useNarrowScreen();
  if ('tooLarge' in diff) {
    return <Text color="fg.muted">These versions differ in too many lines to show side by side.</Text>;
  }
  const rows = foldUnchanged(diff.rows);
  return (
    <Box>
      <HStack justify="space-between" mb="2" fontSize="sm" wrap="wrap">
        <Text data-testid="diff-counts">
          <Text as="span" color="fg.success">
            +{diff.added}
          </Text>{' '}
          <Text as="span" color="fg.error">
            −{diff.removed}
          </Text>{' '}
          {diff.added + diff.removed === 0 ? 'The code is the same in both versions.' : 'lines changed'}
        </Text>
      </HStack>
      <Box
        overflowX="auto"
        borderWidth="1px"
        rounded="md"
        fontFamily="mono"
        fontSize="xs"
        maxH="480px"
        overflowY="auto"
        tabIndex={0}
        aria-label={`Changes from ${older.label} to ${newer.label}`}
        data-testid="version-diff"
      >
        {narrow ? (
          <Grid templateColumns="auto auto minmax(0, 1fr)" minW="fit-content">
            <Box gridColumn="1 / span 3" px="2" py="1" bg="bg.subtle" fontWeight="semibold" fontFamily="body">
              {older.label} → {newer.label}
            </Box>
            {rows.map((row, index) =>
              row.kind === 'fold' ? (
                <Fold key={`fold-${index}`} count={row.count} span={3} />
              ) : (
                <UnifiedRow key={index} row={row} />
              ),
            )}
          </Grid>
        ) : (
          <Grid templateColumns="auto minmax(280px, 1fr) auto minmax(280px, 1fr)" minW="fit-content">
            <Box gridColumn="1 / span 2" px="2" py="1" bg="bg.subtle" fontWeight="semibold" fontFamily="body">
              {older.label}
            </Box>
            <Box gridColumn="3 / span 2" px="2" py="1" bg="bg.subtle" fontWeight="semibold" fontFamily="body">
              {newer.label}
            </Box>
            {rows.map((row, index) =>
              row.kind === 'fold' ? (
                <Fold key={`fold-${index}`} count={row.count} span={4} />
              ) : (
                <Fragment key={index}>
                  <Cell cell={row.left} background={SIDE_COLORS[row.kind].left} mark={MARK[row.kind].left} />
                  <Cell cell={row.right} background={SIDE_COLORS[row.kind].right} mark={MARK[row.kind].right} />
                </Fragment>
              ),
            )}
          </Grid>
        )}
      </Box>
    </Box>
  );
}

function Fold({ count, span }: { count: number; span: number }) {
  return (
    <Box gridColumn={`1 / span ${span}`} px="2" py="0.5" bg="bg.muted" color="fg.muted" fontFamily="body">
      ⋯ {count.toLocaleString('en')} unchanged {count === 1 ? 'line' : 'lines'}
    </Box>
  );
}

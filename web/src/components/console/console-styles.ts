import { defineStyle } from '@chakra-ui/react';

/**
 * The log's look, set once on its container. Rows are plain elements with class names: a busy game
 * mounts hundreds of rows a second, and a styled component per cell would cost its style
 * computation each time (measured: seconds of main-thread work in a 6,000-line flood).
 */
export const CONSOLE_LOG_CSS = defineStyle({
  // The virtual list (useConsoleVirtualizer.ts): the box as tall as all rows, its head, and each
  // row's slot, which the list moves into place.
  '& .console-rows': { position: 'relative', width: 'full' },
  '& .console-slot': { position: 'absolute', top: '0', left: '0', width: 'full' },
  '& .console-head': {
    position: 'absolute',
    top: '0',
    left: '0',
    width: 'full',
    display: 'flex',
    justifyContent: 'center',
    alignItems: 'center',
    alignContent: 'center',
    flexWrap: 'wrap',
    columnGap: '2',
    px: '3',
    overflow: 'hidden',
    fontFamily: 'body',
    lineHeight: '1.4',
    textAlign: 'center',
  },
  '& .console-row': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    columnGap: '3',
    rowGap: '0.5',
    px: '3',
    py: '0.5',
    borderLeftWidth: '3px',
    borderLeftStyle: 'solid',
    borderLeftColor: 'transparent',
  },
  // Errors stand out most: a red band; warnings keep their colour and an edge.
  '& .console-row[data-tone=error]': { bg: 'bg.error', borderLeftColor: 'border.error' },
  '& .console-row[data-tone=warning]': { borderLeftColor: 'border.warning' },
  '& .console-time': { color: 'fg.muted', flexShrink: 0 },
  '& .console-server': { color: 'fg.muted', flexShrink: 0 },
  '& .console-level': { width: '7ch', flexShrink: 0, color: 'fg.muted' },
  '& .console-text': {
    flexGrow: 1,
    flexBasis: '16rem',
    minWidth: 0,
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    color: 'fg',
  },
  '& [data-level=info] :is(.console-level, .console-text)': { color: 'fg.info' },
  '& [data-level=warning] :is(.console-level, .console-text)': { color: 'fg.warning' },
  '& [data-level=error] :is(.console-level, .console-text)': { color: 'fg.error' },
  '& [data-level=error] .console-level': { fontWeight: 'bold' },
  '& .console-row[data-own] .console-text': { color: 'fg.muted', fontStyle: 'italic' },
  '& .console-toggle': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    px: '1.5',
    borderRadius: 'sm',
    color: 'fg.muted',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted', color: 'fg' },
  },
  '& [data-level=error] .console-toggle': { color: 'fg.error' },
  '& .console-links': { display: 'flex', flexWrap: 'wrap', columnGap: '3' },
  '& .console-link': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    color: 'fg.error',
    textDecoration: 'underline',
  },
  '& :is(.console-toggle, .console-link):focus-visible': {
    outline: '2px solid',
    outlineColor: 'fg',
    outlineOffset: '1px',
  },
  '& .console-stack': {
    width: 'full',
    m: '0',
    ps: '4',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    color: 'fg.muted',
    fontFamily: 'mono',
  },
  '& [data-level=error] .console-stack': { color: 'fg.error' },
  '& .console-notice': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1.5',
    color: 'fg.warning',
    fontWeight: 'medium',
  },
});

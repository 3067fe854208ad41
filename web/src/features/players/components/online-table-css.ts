import type { SystemStyleObject } from '@chakra-ui/react';
import { PLAYER_ROW_HEIGHT } from './use-player-rows.ts';

/**
 * The online table's look, declared once on the table and reaching its cells by data attribute:
 * rows carry no style props of their own, so drawing a row as the list scrolls computes no styles.
 */
export const ONLINE_TABLE_CSS: SystemStyleObject = {
  '& tbody tr': { height: `${PLAYER_ROW_HEIGHT}px` },
  '& [data-wide]': { display: { base: 'none', md: 'table-cell' } },
  '& [data-part="age"]': { textAlign: 'end' },
  '& td[data-part="server"]': {
    maxWidth: '12rem',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& [data-part="open"]': {
    paddingInline: '0',
    height: 'auto',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: '0',
    textAlign: 'start',
  },
  '& [data-part="display"]': { fontWeight: 'medium', lineClamp: 1 },
  '& [data-part="handle"]': { fontSize: 'xs', color: 'fg.muted', lineClamp: 1 },
  '& [data-part="handle"] > *': { marginStart: '2' },
};

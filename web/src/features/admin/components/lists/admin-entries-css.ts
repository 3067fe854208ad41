import { defineStyle } from '@chakra-ui/react';

/**
 * How an entry of Audit Logs or Recent Executions looks, declared once for the list (decision 051):
 * each part of an entry is a plain element named by class, and what differs from entry to entry
 * (a failed run's result) is said in a data attribute, so the entries drawn while the list scrolls
 * cost Chakra no style resolution of their own. The two lists read alike, and share it.
 */
export const ADMIN_ENTRIES_CSS = defineStyle({
  listStyleType: 'none',
  '& > li[data-index]': { px: '4', py: '3', borderBottomWidth: '1px' },
  '& .admin-entry-head': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '3',
  },
  '& .admin-entry-what': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' },
  '& .admin-entry-muted': { fontSize: 'sm', color: 'fg.muted' },
  '& .admin-entry-time': { whiteSpace: 'nowrap' },
  '& .admin-entry-id': { fontSize: 'xs', color: 'fg.muted', fontFamily: 'mono' },
  '& .admin-entry-mono': { fontFamily: 'mono' },
  // Audit Logs: the details on up to two lines.
  '& .audit-details': {
    fontSize: 'xs',
    fontFamily: 'mono',
    color: 'fg.muted',
    mt: '1',
    lineClamp: 2,
    wordBreak: 'break-all',
  },
  // Recent Executions: who ran it, what and what came of it.
  '& .execution-admin': { fontWeight: 'medium' },
  '& .execution-duration': { fontSize: 'xs', color: 'fg.muted', whiteSpace: 'nowrap' },
  '& .execution-details': {
    fontSize: 'sm',
    fontFamily: 'mono',
    mt: '1',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .execution-result': {
    fontSize: 'xs',
    fontFamily: 'mono',
    color: 'fg.muted',
    lineClamp: 2,
    whiteSpace: 'pre-wrap',
  },
  '& .execution-result[data-error]': { color: 'fg.error' },
});

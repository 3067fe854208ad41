import { chakra } from '@chakra-ui/react';
import { timeAgo } from '../../../lib/format.ts';

function fullDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString('en', { dateStyle: 'full', timeStyle: 'short' });
}

/** Relative time ("3 hours ago"), with the full date on hover. */
export function LastModified({ iso }: { iso: string }) {
  return (
    <chakra.time dateTime={iso} title={fullDate(iso)} fontSize="sm" color="fg.muted" whiteSpace="nowrap">
      {timeAgo(iso)}
    </chakra.time>
  );
}

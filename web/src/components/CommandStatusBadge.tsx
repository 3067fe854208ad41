import { Badge } from '@chakra-ui/react';
import type { CommandStatus } from '@moonrelay/contract/game';

const STATUSES: Record<CommandStatus, { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  delivered: { label: 'Delivered', palette: 'blue' },
  succeeded: { label: 'Done', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  expired: { label: 'Expired', palette: 'orange' },
};

/** Where a game command stands, as the dashboard and the admin's connection cards show it. */
export function CommandStatusBadge({ status }: { status: CommandStatus }) {
  const { label, palette } = STATUSES[status];
  return <Badge colorPalette={palette}>{label}</Badge>;
}

import { Badge, Spinner } from '@chakra-ui/react';
import type { RunStatus, RunSummary } from '@moonrelay/contract/runs';
import { LIMIT_NOTES } from '../lib/execution-result.ts';

const STATUS_BADGES: Record<RunStatus, { label: string; palette: string }> = {
  pending: { label: 'Pending', palette: 'blue' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  not_connected: { label: 'Not connected', palette: 'gray' },
};

/** A run's status as its badge shows it; a run a sandbox limit ended says which limit. */
function statusBadge(run: Pick<RunSummary, 'status' | 'limitHit'>): { label: string; palette: string } {
  if (run.status === 'failed' && run.limitHit) return { label: LIMIT_NOTES[run.limitHit], palette: 'orange' };
  return STATUS_BADGES[run.status];
}

/** How a run ended (or that it waits for its game's result): on the Runs page and a schedule's last run. */
export function RunStatusBadge({ run }: { run: Pick<RunSummary, 'status' | 'limitHit'> }) {
  const { label, palette } = statusBadge(run);
  return (
    <Badge colorPalette={palette} data-testid="run-status" whiteSpace="nowrap">
      {run.status === 'pending' && <Spinner size="xs" />}
      {label}
    </Badge>
  );
}

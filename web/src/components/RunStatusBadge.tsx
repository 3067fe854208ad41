import { Badge, Spinner } from '@chakra-ui/react';
import type { RunSummary } from '@moonrelay/contract/runs';
import { statusBadge } from '../features/runs/run-text.ts';

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

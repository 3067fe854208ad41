import { Badge, Spinner } from '@chakra-ui/react';
import type { RunStatus, RunSummary } from '@moonrelay/contract/runs';
import { CLOUD_STATES } from '../lib/cloud-run.ts';
import { LIMIT_NOTES } from '../lib/execution-result.ts';

const STATUS_BADGES: Record<RunStatus, { label: string; palette: string }> = {
  pending: { label: 'Pending', palette: 'blue' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  not_connected: { label: 'Not connected', palette: 'gray' },
};

type BadgeRun = Pick<RunSummary, 'status' | 'limitHit'> & Partial<Pick<RunSummary, 'cloudState'>>;

/**
 * A run's status as its badge shows it; a run a sandbox limit ended says which limit, and a cloud
 * run still pending says where it is (waiting in Moonrelay, queued or running in Roblox).
 */
function statusBadge(run: BadgeRun): { label: string; palette: string } {
  if (run.status === 'failed' && run.limitHit) return { label: LIMIT_NOTES[run.limitHit], palette: 'orange' };
  if (run.status === 'pending' && run.cloudState) return CLOUD_STATES[run.cloudState];
  return STATUS_BADGES[run.status];
}

/** How a run ended (or that it waits for its game's result): on the Runs page and a schedule's last run. */
export function RunStatusBadge({ run }: { run: BadgeRun }) {
  const { label, palette } = statusBadge(run);
  return (
    <Badge colorPalette={palette} data-testid="run-status" whiteSpace="nowrap">
      {run.status === 'pending' && <Spinner size="xs" />}
      {label}
    </Badge>
  );
}

import { Box, Stack, Text } from '@chakra-ui/react';
import type { DryRunSummary } from '../lib/execution-result.ts';

type ClassCounts = DryRunSummary['created'];

/** "3 Part, 1 Folder", or "none". */
export function describeCounts(counts: ClassCounts): string {
  if (counts.length === 0) return 'none';
  return counts.map(({ className, count }) => `${count} ${className}`).join(', ');
}

/** "12 s of game time, nothing left to run" or "... stopped at the game-time limit, 2 threads still waiting". */
export function describeEnding(summary: DryRunSummary): string {
  const seconds = Number.isInteger(summary.gameSeconds) ? summary.gameSeconds : summary.gameSeconds.toFixed(2);
  const ending = summary.endedBy === 'idle' ? 'nothing left to run' : 'stopped at the dry run’s game-time limit';
  const waiting =
    summary.waitingThreads > 0
      ? `, ${summary.waitingThreads} thread${summary.waitingThreads === 1 ? '' : 's'} still waiting`
      : '';
  return `${seconds} s of game time, ${ending}${waiting}`;
}

/** A dry run's summary under its output: what the script created, destroyed and changed in the emulated game. */
export function DryRunSummaryView({ summary }: { summary: DryRunSummary }) {
  return (
    <Box mt="3" p="3" borderRadius="md" borderWidth="1px" data-testid="dry-run-summary">
      <Text fontSize="sm" fontWeight="semibold" mb="1">
        What the script did in the emulated game
      </Text>
      <Stack gap="1" fontSize="sm">
        <Text data-testid="dry-run-created">Created: {describeCounts(summary.created)}</Text>
        <Text data-testid="dry-run-destroyed">Destroyed: {describeCounts(summary.destroyed)}</Text>
        <Text>
          Properties set: {summary.propertiesSet}
          {summary.changed.length > 0 ? ', of the game’s own instances:' : ''}
        </Text>
        {summary.changed.length > 0 && (
          <Box as="ul" pl="5" fontFamily="mono" fontSize="xs" data-testid="dry-run-changed">
            {summary.changed.map((change) => (
              <li key={`${change.instance}.${change.property}`}>
                {change.instance}.{change.property} = {change.value}
              </li>
            ))}
            {summary.changedOmitted > 0 && <li>… and {summary.changedOmitted} more</li>}
          </Box>
        )}
        <Text color="fg.muted" data-testid="dry-run-ending">
          {describeEnding(summary)}
        </Text>
      </Stack>
    </Box>
  );
}

import { Badge, Box, Card, HStack, Heading } from '@chakra-ui/react';
import { EDITOR_TEXT } from './editor-form.ts';

export type ExecutionStatus = 'idle' | 'running' | 'success' | 'error';

export interface Execution {
  status: ExecutionStatus;
  output?: string;
  error?: string;
}

const BADGES: Record<ExecutionStatus, { label: string; palette: string }> = {
  idle: { label: 'Idle', palette: 'gray' },
  running: { label: 'Running', palette: 'blue' },
  success: { label: 'Success', palette: 'green' },
  error: { label: 'Error', palette: 'red' },
};

/** The output pane (spec section 4): the output field, else the error field, else 'No output'. */
export function ExecutionOutput({ execution }: { execution: Execution }) {
  const badge = BADGES[execution.status];
  const text =
    execution.status === 'running' ? EDITOR_TEXT.running : execution.output || execution.error || EDITOR_TEXT.noOutput;
  return (
    <Card.Root size="sm" aria-live="polite">
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="sm">Execution Output</Heading>
          <Badge colorPalette={badge.palette} data-testid="execution-status">
            {badge.label}
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Box
          as="pre"
          data-testid="execution-output"
          fontFamily="mono"
          fontSize="sm"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          maxH="60"
          overflowY="auto"
          p="3"
          borderRadius="md"
          bg="bg.muted"
          color={execution.status === 'error' ? 'fg.error' : execution.output ? 'fg' : 'fg.muted'}
        >
          {text}
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

import { Card, Center, Text } from '@chakra-ui/react';
import { Suspense, type ReactNode } from 'react';

interface Props {
  title: string;
  description: string;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: string | false;
  children: ReactNode;
}

/**
 * A titled card holding one chart (a region named by its title, for screen readers and tests).
 * It fills the height of its grid cell, so the cards of one row line up at the bottom.
 */
export function ChartCard({ title, description, empty, children }: Props) {
  return (
    <Card.Root role="region" aria-label={title} size="sm" minW="0" h="full">
      <Card.Header>
        <Card.Title as="h2">{title}</Card.Title>
        <Card.Description>{description}</Card.Description>
      </Card.Header>
      {/* Tall enough for a chart (72) and the body's padding, loading or not, so nothing below moves
          when the chart comes in. */}
      <Card.Body minH="80">
        {empty ? (
          <Waiting text={empty} />
        ) : (
          // The charts load apart from the screen (charts.ts): until then the card says so.
          <Suspense fallback={<Waiting text="Loading..." />}>{children}</Suspense>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Waiting({ text }: { text: string }) {
  return (
    <Center flex="1">
      <Text color="fg.muted" fontSize="sm">
        {text}
      </Text>
    </Center>
  );
}

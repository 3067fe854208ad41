import { Box, Button, Center, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { messageOf } from '../../../../lib/api-client.ts';

/**
 * The admin lists' height in pixels (spec section 9: admin lists sit in 600px scroll areas), and
 * the `screenful` their rows drawn in view (`useRowsInView`) assume until the area is laid out.
 */
export const ADMIN_LIST_HEIGHT_PX = 600;

interface Props {
  /** Names the scroll area for assistive technology and tests ("Users", "Audit Logs"...). */
  label: string;
  /** The scroll box of the rows drawn in view (`useRowsInView`): the rows' virtualizer reads it. */
  scrollerRef(element: HTMLDivElement | null): void;
  /** A tab stop while it scrolls. */
  tabIndex: 0 | undefined;
  /** The list's first load has not answered yet. */
  loading: boolean;
  /** The list could not be loaded (and there is nothing to show). */
  error: unknown;
  onRetry(): void;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}

/**
 * A 600px scroll area holding an admin list, or its loading, failure or empty state. It scrolls
 * down through a long list (of which only the rows in view are drawn) and sideways through a table
 * wider than a phone, and is a tab stop while it scrolls so both are in keyboard reach.
 */
export function ListArea({ label, scrollerRef, tabIndex, loading, error, onRetry, empty, emptyText, children }: Props) {
  let content: ReactNode;
  if (loading) {
    content = (
      <Center h="full">
        <Spinner />
      </Center>
    );
  } else if (error) {
    content = (
      <Center h="full">
        <Stack align="center" gap="3">
          <Text color="fg.error">
            {label} could not be loaded. {messageOf(error, '')}
          </Text>
          <Button size="sm" variant="outline" onClick={onRetry}>
            Retry
          </Button>
        </Stack>
      </Center>
    );
  } else if (empty) {
    content = (
      <Center h="full">
        <Text color="fg.muted">{emptyText}</Text>
      </Center>
    );
  } else {
    content = children;
  }
  return (
    <Box
      role="region"
      aria-label={label}
      ref={scrollerRef}
      tabIndex={tabIndex}
      focusVisibleRing="inside"
      height={`${ADMIN_LIST_HEIGHT_PX}px`}
      overflowY="auto"
      overflowX="auto"
      // No scroll anchoring: the browser keeping a row in place as the space above it changes
      // would scroll again, and again.
      overflowAnchor="none"
      borderWidth="1px"
      borderRadius="md"
      bg="bg.panel"
      data-testid="admin-list"
    >
      {content}
    </Box>
  );
}

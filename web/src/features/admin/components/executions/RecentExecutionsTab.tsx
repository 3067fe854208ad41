import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RecentExecution, RecentExecutionPage } from '@moonrelay/contract/admin';
import { IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';
import { EXECUTION_TARGETS } from '../../../../components/ExecutionOutput.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { detailsText } from '../audit/AuditLogTab.tsx';
import { ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';

interface Props {
  executions: UseQueryResult<RecentExecutionPage>;
  page: number;
  onPage(page: number): void;
}

const STATUS_PALETTES: Record<string, string> = {
  succeeded: 'green',
  failed: 'red',
  not_connected: 'orange',
  queued: 'blue',
};

/** Recent Executions: every user's runs, newest first, with when, whose, where and what came of them. */
export function RecentExecutionsTab({ executions, page, onPage }: Props) {
  const items = executions.data?.items ?? [];
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.executions}
        loading={executions.isPending}
        error={executions.isError && !executions.data ? executions.error : null}
        onRetry={() => void executions.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noExecutions}
      >
        <Stack as="ul" listStyleType="none" gap="0">
          {items.map((execution) => (
            <ExecutionRow key={execution.id} execution={execution} />
          ))}
        </Stack>
      </ListArea>
      {executions.data && <Pager page={page} total={executions.data.total} onPage={onPage} />}
    </Stack>
  );
}

/** Spec section 2: the admin who ran it, or this when the account is gone. */
const UNKNOWN_ADMIN = 'Unknown Admin';

function ExecutionRow({ execution }: { execution: RecentExecution }) {
  // Written as the audit log writes its details, so the two lists read alike.
  const details = detailsText(execution.details);
  const result = execution.error ?? execution.output;
  return (
    <Box as="li" px="4" py="3" borderBottomWidth="1px" data-testid="recent-execution">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <HStack gap="2" wrap="wrap">
          <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
            {formatDateTime(execution.createdAt)}
          </Text>
          <Text fontWeight="medium" data-testid="recent-execution-admin">
            {execution.adminName ?? UNKNOWN_ADMIN}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            on {execution.userName}
          </Text>
          <Text fontSize="xs" color="fg.muted" fontFamily="mono" title={execution.targetId}>
            {execution.targetId.slice(0, IDENTIFIER_DISPLAY_LENGTH)}
          </Text>
        </HStack>
        <HStack gap="2">
          <Badge variant="outline" colorPalette={EXECUTION_TARGETS[execution.target].palette}>
            {EXECUTION_TARGETS[execution.target].label}
          </Badge>
          <Badge colorPalette={STATUS_PALETTES[execution.status] ?? 'gray'}>{execution.status.replace('_', ' ')}</Badge>
          <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
            {execution.durationMs} ms
          </Text>
        </HStack>
      </HStack>
      <Text
        fontSize="sm"
        fontFamily="mono"
        mt="1"
        truncate
        title={execution.codeExcerpt}
        data-testid="recent-execution-details"
      >
        {details}
      </Text>
      {result && (
        <Text
          fontSize="xs"
          fontFamily="mono"
          color={execution.error ? 'fg.error' : 'fg.muted'}
          lineClamp={2}
          whiteSpace="pre-wrap"
          data-testid="recent-execution-result"
        >
          {result}
        </Text>
      )}
    </Box>
  );
}

import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AuditEntry, AuditPage } from '@moonrelay/contract/admin';
import { IDENTIFIER_DISPLAY_LENGTH } from '@moonrelay/contract/constants';
import { formatDateTime } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';

interface Props {
  audit: UseQueryResult<AuditPage>;
  page: number;
  onPage(page: number): void;
}

/** "type: heal · userIds: [...]": an entry's details on one line. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}

/** Audit Logs: every audited action, newest first; new entries arrive live at the top. */
export function AuditLogTab({ audit, page, onPage }: Props) {
  const items = audit.data?.items ?? [];
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.audit}
        loading={audit.isPending}
        error={audit.isError && !audit.data ? audit.error : null}
        onRetry={() => void audit.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noAudit}
      >
        <Stack as="ul" listStyleType="none" gap="0">
          {items.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </Stack>
      </ListArea>
      {audit.data && <Pager page={page} total={audit.data.total} onPage={onPage} />}
    </Stack>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const details = detailsText(entry.details);
  return (
    <Box as="li" px="4" py="3" borderBottomWidth="1px" data-testid="audit-entry">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <HStack gap="2" wrap="wrap">
          <Badge colorPalette="purple" fontFamily="mono">
            {entry.action}
          </Badge>
          <Text fontSize="sm" color="fg.muted">
            {entry.targetType}
          </Text>
          {entry.targetId && (
            <Text fontSize="xs" color="fg.muted" fontFamily="mono" title={entry.targetId}>
              {entry.targetId.slice(0, IDENTIFIER_DISPLAY_LENGTH)}
            </Text>
          )}
          {entry.actorName && (
            <Text fontSize="sm" color="fg.muted">
              by {entry.actorName}
            </Text>
          )}
        </HStack>
        <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
          {formatDateTime(entry.createdAt)}
        </Text>
      </HStack>
      {details && (
        <Text
          fontSize="xs"
          fontFamily="mono"
          color="fg.muted"
          mt="1"
          lineClamp={2}
          wordBreak="break-all"
          title={details}
        >
          {details}
        </Text>
      )}
    </Box>
  );
}

import { Badge, Checkbox, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminUser, AdminUserPage } from '@moonrelay/contract/admin';
import { formatDate } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { useSelection } from '../../selection.ts';
import { ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';
import { ApiKeyCell } from './ApiKeyCell.tsx';
import { RegenerateKeyButton } from './RegenerateKeyButton.tsx';
import { ResetTwoFactorButton } from './ResetTwoFactorButton.tsx';
import { UserApiKeysButton } from './UserApiKeysButton.tsx';
import { RoleButton } from './RoleButton.tsx';

interface Props {
  users: UseQueryResult<AdminUserPage>;
  page: number;
  onPage(page: number): void;
  currentUserId: string | undefined;
}

const asTarget = ({ id, name, username }: AdminUser) => ({ id, name, username });

/**
 * Narrower than this (a phone), the table scrolls sideways inside its list area instead of breaking
 * emails and keys one letter per line; the selection box and the name stay in view while it does.
 */
const TABLE_MIN_WIDTH = '3xl';
const SELECT_COLUMN_WIDTH = '10';
/** The kept columns: stuck to the left edge of the list area, over the cells scrolling under them. */
const keptColumn = (left: string) => ({ position: 'sticky', left, zIndex: 1, bg: 'bg.panel' }) as const;

/**
 * The Users tab (spec section 2): every user with a selection checkbox (the targets of Mass
 * Execution), their API key masked with a per-row reveal, script count, creation date and role,
 * and the actions Regenerate Key and Make Admin / Remove Admin.
 */
export function UsersTab({ users, page, onPage, currentUserId }: Props) {
  const items = users.data?.items ?? [];
  const selected = useSelection((state) => state.selected);
  const setMany = useSelection((state) => state.setMany);
  const selectedHere = items.filter((user) => selected[user.id]).length;
  const allHere = items.length > 0 && selectedHere === items.length;

  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.users}
        loading={users.isPending}
        error={users.isError && !users.data ? users.error : null}
        onRetry={() => void users.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noUsers}
      >
        <Table.Root size="sm" stickyHeader minW={TABLE_MIN_WIDTH}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader
                width={SELECT_COLUMN_WIDTH}
                minW={SELECT_COLUMN_WIDTH}
                maxW={SELECT_COLUMN_WIDTH}
                {...keptColumn('0')}
              >
                <Checkbox.Root
                  size="sm"
                  checked={allHere ? true : selectedHere > 0 ? 'indeterminate' : false}
                  onCheckedChange={(event) => setMany(items.map(asTarget), event.checked === true)}
                >
                  <Checkbox.HiddenInput aria-label="Select all users on this page" />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
              <Table.ColumnHeader {...keptColumn(SELECT_COLUMN_WIDTH)}>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Email</Table.ColumnHeader>
              <Table.ColumnHeader>API Key</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Scripts</Table.ColumnHeader>
              <Table.ColumnHeader>Created</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((user) => (
              <UserRow key={user.id} user={user} isSelf={user.id === currentUserId} />
            ))}
          </Table.Body>
        </Table.Root>
      </ListArea>
      {users.data && <Pager page={page} total={users.data.total} onPage={onPage} />}
    </Stack>
  );
}

function UserRow({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const isSelected = useSelection((state) => Boolean(state.selected[user.id]));
  const toggle = useSelection((state) => state.toggle);
  return (
    <Table.Row data-testid="admin-user-row" data-selected={isSelected || undefined}>
      <Table.Cell
        width={SELECT_COLUMN_WIDTH}
        minW={SELECT_COLUMN_WIDTH}
        maxW={SELECT_COLUMN_WIDTH}
        {...keptColumn('0')}
      >
        <Checkbox.Root
          size="sm"
          checked={isSelected}
          onCheckedChange={(event) => toggle(asTarget(user), event.checked === true)}
        >
          <Checkbox.HiddenInput aria-label={`Select ${user.name}`} />
          <Checkbox.Control />
        </Checkbox.Root>
      </Table.Cell>
      <Table.Cell minW="40" {...keptColumn(SELECT_COLUMN_WIDTH)}>
        <HStack gap="2">
          <Text fontWeight="medium">{user.name}</Text>
          {user.isAdmin && (
            <Badge colorPalette="purple" size="sm">
              Admin
            </Badge>
          )}
          {isSelf && (
            <Text as="span" fontSize="xs" color="fg.muted">
              (you)
            </Text>
          )}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          @{user.username}
        </Text>
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">{user.email}</Table.Cell>
      <Table.Cell>
        <ApiKeyCell apiKey={user.apiKey} userName={user.name} />
      </Table.Cell>
      <Table.Cell textAlign="end">{user.scriptCount.toLocaleString('en')}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{formatDate(user.createdAt)}</Table.Cell>
      <Table.Cell>
        <HStack gap="2" justify="flex-end">
          <RegenerateKeyButton user={user} />
          <UserApiKeysButton user={user} />
          <ResetTwoFactorButton user={user} />
          <RoleButton user={user} isSelf={isSelf} />
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
}

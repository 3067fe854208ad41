import { Badge, Checkbox, defineStyle, Stack, Table } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminUser, AdminUserPage } from '@moonrelay/contract/admin';
import { memo } from 'react';
import { formatDate } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { useSelection } from '../../selection.ts';
import { useRowsInView } from '../../../../lib/rows-in-view.ts';
import { ADMIN_LIST_HEIGHT_PX, ListArea } from '../lists/ListArea.tsx';
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
const userId = (user: AdminUser) => user.id;

/** A row's height before it is measured: the name over the @username, and the cell's padding. */
const ROW_ESTIMATE = 57;
const rowEstimate = () => ROW_ESTIMATE;
/** Rows drawn past each edge of the area, so Tab has a next row to reach and the header is covered. */
const OVERSCAN = 4;

/**
 * Narrower than this (a phone), the table scrolls sideways inside its list area instead of breaking
 * emails and keys one letter per line; the selection box and the name stay in view while it does.
 */
const TABLE_MIN_WIDTH = '3xl';
const SELECT_COLUMN_WIDTH = '10';
/** The kept columns: stuck to the left edge of the list area, over the cells scrolling under them. */
const keptColumn = (left: string) => ({ position: 'sticky', left, zIndex: 1, bg: 'bg.panel' }) as const;

/**
 * How a row looks, declared once for the table: each cell names its part by class and a row says
 * what it is in data attributes, so the rows drawn while scrolling cost Chakra no style resolution
 * of their own (decision 051).
 */
const USERS_CSS = defineStyle({
  '& td.user-kept': keptColumn('0'),
  '& td.user-select': { width: SELECT_COLUMN_WIDTH, minW: SELECT_COLUMN_WIDTH, maxW: SELECT_COLUMN_WIDTH },
  '& td.user-name': { left: SELECT_COLUMN_WIDTH, minW: '40' },
  '& .user-line': { display: 'flex', alignItems: 'center', gap: '2' },
  '& .user-full-name': { fontWeight: 'medium' },
  '& .user-you': { fontSize: 'xs', color: 'fg.muted' },
  '& .user-username': { fontSize: 'sm', color: 'fg.muted' },
  '& td.user-nowrap': { whiteSpace: 'nowrap' },
  '& td.user-end': { textAlign: 'end' },
  '& .user-actions': { display: 'flex', gap: '2', justifyContent: 'flex-end' },
  '& .api-key': { display: 'flex', alignItems: 'center', gap: '1' },
  '& .api-key-value': { wordBreak: 'break-all' },
  '& .api-key-none': { fontSize: 'sm', color: 'fg.muted' },
});

interface RowProps {
  user: AdminUser;
  isSelf: boolean;
  /** The user's place on the page (0 for the first), for screen readers counting rows. */
  index: number;
  measure(element: HTMLElement | null): void;
}

/**
 * The Users tab (spec section 2): every user with a selection checkbox (the targets of Mass
 * Execution), their API key masked with a per-row reveal, script count, creation date and role,
 * and the actions Regenerate Key and Make Admin / Remove Admin. A page holds up to 50 users; only
 * the rows its 600px area shows are drawn, with space standing in for the others.
 */
export function UsersTab({ users, page, onPage, currentUserId }: Props) {
  const items = users.data?.items ?? [];
  const selected = useSelection((state) => state.selected);
  const setMany = useSelection((state) => state.setMany);
  const selectedHere = items.filter((user) => selected[user.id]).length;
  const allHere = items.length > 0 && selectedHere === items.length;
  const { scrollerRef, tabIndex, drawn, before, after, measure } = useRowsInView(items, {
    keyOf: userId,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ADMIN_LIST_HEIGHT_PX,
  });

  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.users}
        scrollerRef={scrollerRef}
        tabIndex={tabIndex}
        loading={users.isPending}
        error={users.isError && !users.data ? users.error : null}
        onRetry={() => void users.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noUsers}
      >
        <Table.Root
          size="sm"
          stickyHeader
          minW={TABLE_MIN_WIDTH}
          css={USERS_CSS}
          aria-label={ADMIN_TEXT.tabs.users}
          // The header row is the first.
          aria-rowcount={items.length + 1}
        >
          <Table.Header>
            <Table.Row aria-rowindex={1}>
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
            {before > 0 && <tr aria-hidden data-spacer style={{ height: before }} />}
            {drawn.map(({ index }) => {
              const user = items[index]!;
              return (
                <UserRow key={user.id} user={user} isSelf={user.id === currentUserId} index={index} measure={measure} />
              );
            })}
            {after > 0 && <tr aria-hidden data-spacer style={{ height: after }} />}
          </Table.Body>
        </Table.Root>
      </ListArea>
      {users.data && <Pager page={page} total={users.data.total} onPage={onPage} />}
    </Stack>
  );
}

/**
 * One user. Memoised, and styled by the table's one style object (`USERS_CSS`) through classes and
 * data attributes: scrolling draws new rows at the edges, and the rows already drawn stay as they are.
 */
const UserRow = memo(function UserRow({ user, isSelf, index, measure }: RowProps) {
  const isSelected = useSelection((state) => Boolean(state.selected[user.id]));
  const toggle = useSelection((state) => state.toggle);
  return (
    <Table.Row
      ref={measure}
      data-index={index}
      // Below the header row, which is the first.
      aria-rowindex={index + 2}
      data-testid="admin-user-row"
      data-selected={isSelected || undefined}
    >
      <Table.Cell className="user-kept user-select">
        <Checkbox.Root
          size="sm"
          checked={isSelected}
          onCheckedChange={(event) => toggle(asTarget(user), event.checked === true)}
        >
          <Checkbox.HiddenInput aria-label={`Select ${user.name}`} />
          <Checkbox.Control />
        </Checkbox.Root>
      </Table.Cell>
      <Table.Cell className="user-kept user-name">
        <div className="user-line">
          <span className="user-full-name">{user.name}</span>
          {user.isAdmin && (
            <Badge colorPalette="purple" size="sm">
              Admin
            </Badge>
          )}
          {isSelf && <span className="user-you">(you)</span>}
        </div>
        <div className="user-username">@{user.username}</div>
      </Table.Cell>
      <Table.Cell className="user-nowrap">{user.email}</Table.Cell>
      <Table.Cell>
        <ApiKeyCell apiKey={user.apiKey} userName={user.name} />
      </Table.Cell>
      <Table.Cell className="user-end">{user.scriptCount.toLocaleString('en')}</Table.Cell>
      <Table.Cell className="user-nowrap">{formatDate(user.createdAt)}</Table.Cell>
      <Table.Cell>
        <div className="user-actions">
          <RegenerateKeyButton user={user} />
          <UserApiKeysButton user={user} />
          <ResetTwoFactorButton user={user} />
          <RoleButton user={user} isSelf={isSelf} />
        </div>
      </Table.Cell>
    </Table.Row>
  );
});

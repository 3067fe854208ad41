import { Button, defineStyle, Stack, Table } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { memo, useCallback, useId, useState } from 'react';
import { ROLE_LABELS, type AdminTeam, type AdminTeamPage } from '@moonrelay/contract/teams';
import { formatDate } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { useRowsInView } from '../../../../lib/rows-in-view.ts';
import { ADMIN_LIST_HEIGHT_PX, ListArea } from '../lists/ListArea.tsx';
import { Pager } from '../lists/Pager.tsx';

interface Props {
  teams: UseQueryResult<AdminTeamPage>;
  page: number;
  onPage(page: number): void;
}

/** Narrower than this (a phone), the table scrolls sideways inside its list area, as the Users tab does. */
const TABLE_MIN_WIDTH = '2xl';

/**
 * Members a row shows until asked for all: a team has up to 200 and a page holds 50 teams, so a
 * page of large teams would otherwise draw thousands of names at once.
 */
export const MEMBERS_SHOWN = 6;

const teamId = (team: AdminTeam) => team.id;
/** A row's height before it is measured: a line of members (a large team's wrap to more). */
const ROW_ESTIMATE = 90;
const rowEstimate = () => ROW_ESTIMATE;
/** Rows drawn past each edge of the area, so Tab has a next row to reach and the header is covered. */
const OVERSCAN = 3;

/**
 * A row's and its members' look, set once on the table (decision 051): each cell and member is a
 * plain element with class names, and an owner is told by `data-role`, not by props that differ
 * from member to member.
 */
const TEAMS_CSS = defineStyle({
  '& tbody tr[data-index]': { verticalAlign: 'top' },
  '& td.team-name-cell': { minW: '40' },
  '& .team-name': { fontWeight: 'medium', wordBreak: 'break-word' },
  '& .team-member-count': { fontSize: 'sm', color: 'fg.muted' },
  '& .team-no-members': { color: 'fg.muted' },
  '& .team-members-toggle': { px: '0', mt: '1' },
  '& td.team-end': { textAlign: 'end' },
  '& td.team-nowrap': { whiteSpace: 'nowrap' },
  '& .team-members': { listStyleType: 'none', display: 'flex', flexWrap: 'wrap', gap: '1.5' },
  '& .team-member': {
    display: 'inline-flex',
    alignItems: 'baseline',
    gap: '1.5',
    px: '2',
    py: '0.5',
    borderWidth: '1px',
    borderRadius: 'full',
    fontSize: 'sm',
    whiteSpace: 'nowrap',
  },
  '& .team-member-role': { fontSize: 'xs', color: 'fg.muted' },
  '& .team-member[data-role="owner"] .team-member-role': { color: 'purple.fg', fontWeight: 'semibold' },
});

/**
 * The Teams tab: every team (its account is a row of `users` of kind team, so the Users tab does
 * not list it), newest first, 50 a page, with its members and their roles, its script count and
 * when it was made. Only the rows its 600px area shows are drawn, with space for the others.
 */
export function TeamsTab({ teams, page, onPage }: Props) {
  const items = teams.data?.items ?? [];
  const { scrollerRef, tabIndex, drawn, before, after, measure } = useRowsInView(items, {
    keyOf: teamId,
    estimateSize: rowEstimate,
    overscan: OVERSCAN,
    screenful: ADMIN_LIST_HEIGHT_PX,
  });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.teams}
        scrollerRef={scrollerRef}
        tabIndex={tabIndex}
        loading={teams.isPending}
        error={teams.isError && !teams.data ? teams.error : null}
        onRetry={() => void teams.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noTeams}
      >
        <Table.Root
          size="sm"
          stickyHeader
          minW={TABLE_MIN_WIDTH}
          css={TEAMS_CSS}
          aria-label={ADMIN_TEXT.tabs.teams}
          // The header row is the first.
          aria-rowcount={items.length + 1}
        >
          <Table.Header>
            <Table.Row aria-rowindex={1}>
              <Table.ColumnHeader>Team</Table.ColumnHeader>
              <Table.ColumnHeader>Members</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Scripts</Table.ColumnHeader>
              <Table.ColumnHeader>Created</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {before > 0 && <tr aria-hidden data-spacer style={{ height: before }} />}
            {drawn.map(({ index }) => {
              const team = items[index]!;
              return (
                <TeamRow
                  key={team.id}
                  team={team}
                  index={index}
                  expanded={expanded.has(team.id)}
                  onToggle={toggle}
                  measure={measure}
                />
              );
            })}
            {after > 0 && <tr aria-hidden data-spacer style={{ height: after }} />}
          </Table.Body>
        </Table.Root>
      </ListArea>
      {teams.data && <Pager page={page} total={teams.data.total} onPage={onPage} />}
    </Stack>
  );
}

interface RowProps {
  team: AdminTeam;
  /** The team's place on the page (0 for the first), for screen readers counting rows. */
  index: number;
  /** Whether all its members are shown: kept by the tab, so a row scrolled away and back keeps it. */
  expanded: boolean;
  onToggle(teamId: string): void;
  measure(element: HTMLElement | null): void;
}

/** One team. Memoised and styled by the table's classes: scrolling leaves the drawn rows as they are. */
const TeamRow = memo(function TeamRow({ team, index, expanded, onToggle, measure }: RowProps) {
  const listId = useId();
  const shown = expanded ? team.members : team.members.slice(0, MEMBERS_SHOWN);
  const hidden = team.members.length - shown.length;
  return (
    <Table.Row
      ref={measure}
      data-index={index}
      // Below the header row, which is the first.
      aria-rowindex={index + 2}
      data-testid="admin-team-row"
    >
      <Table.Cell className="team-name-cell">
        <div className="team-name">{team.name}</div>
        <div className="team-member-count">{ADMIN_TEXT.memberCount(team.members.length)}</div>
      </Table.Cell>
      <Table.Cell>
        {team.members.length === 0 ? (
          <span className="team-no-members">{ADMIN_TEXT.noMembers}</span>
        ) : (
          <ul className="team-members" id={listId} aria-label={ADMIN_TEXT.membersOf(team.name)}>
            {shown.map((member) => (
              <li key={member.userId} className="team-member" data-role={member.role}>
                <span>@{member.username}</span> <span className="team-member-role">{ROLE_LABELS[member.role]}</span>
              </li>
            ))}
          </ul>
        )}
        {team.members.length > MEMBERS_SHOWN && (
          <Button
            size="xs"
            variant="plain"
            className="team-members-toggle"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-label={
              expanded ? ADMIN_TEXT.fewerMembersLabel(team.name) : ADMIN_TEXT.moreMembersLabel(hidden, team.name)
            }
            onClick={() => onToggle(team.id)}
          >
            {expanded ? ADMIN_TEXT.fewerMembers : ADMIN_TEXT.moreMembers(hidden)}
          </Button>
        )}
      </Table.Cell>
      <Table.Cell className="team-end">{team.scriptCount.toLocaleString('en')}</Table.Cell>
      <Table.Cell className="team-nowrap">{formatDate(team.createdAt)}</Table.Cell>
    </Table.Row>
  );
});

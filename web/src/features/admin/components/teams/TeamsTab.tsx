import { Button, defineStyle, Stack, Table, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ROLE_LABELS, type AdminTeam, type AdminTeamPage } from '@moonrelay/contract/teams';
import { formatDate } from '../../../../lib/format.ts';
import { ADMIN_TEXT } from '../../admin-text.ts';
import { ListArea } from '../lists/ListArea.tsx';
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

/**
 * The members' look, set once on the table: each member is a plain element with class names, and
 * an owner is told by `data-role`, not by props that differ from member to member.
 */
const MEMBERS_CSS = defineStyle({
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
 * when it was made.
 */
export function TeamsTab({ teams, page, onPage }: Props) {
  const items = teams.data?.items ?? [];
  return (
    <Stack gap="3">
      <ListArea
        label={ADMIN_TEXT.tabs.teams}
        loading={teams.isPending}
        error={teams.isError && !teams.data ? teams.error : null}
        onRetry={() => void teams.refetch()}
        empty={items.length === 0}
        emptyText={ADMIN_TEXT.noTeams}
      >
        <Table.Root size="sm" stickyHeader minW={TABLE_MIN_WIDTH} css={MEMBERS_CSS}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Team</Table.ColumnHeader>
              <Table.ColumnHeader>Members</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Scripts</Table.ColumnHeader>
              <Table.ColumnHeader>Created</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((team) => (
              <TeamRow key={team.id} team={team} />
            ))}
          </Table.Body>
        </Table.Root>
      </ListArea>
      {teams.data && <Pager page={page} total={teams.data.total} onPage={onPage} />}
    </Stack>
  );
}

function TeamRow({ team }: { team: AdminTeam }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const shown = expanded ? team.members : team.members.slice(0, MEMBERS_SHOWN);
  const hidden = team.members.length - shown.length;
  return (
    <Table.Row data-testid="admin-team-row" verticalAlign="top">
      <Table.Cell minW="40">
        <Text fontWeight="medium" wordBreak="break-word">
          {team.name}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {ADMIN_TEXT.memberCount(team.members.length)}
        </Text>
      </Table.Cell>
      <Table.Cell>
        {team.members.length === 0 ? (
          <Text color="fg.muted">{ADMIN_TEXT.noMembers}</Text>
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
            px="0"
            mt="1"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-label={
              expanded ? ADMIN_TEXT.fewerMembersLabel(team.name) : ADMIN_TEXT.moreMembersLabel(hidden, team.name)
            }
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? ADMIN_TEXT.fewerMembers : ADMIN_TEXT.moreMembers(hidden)}
          </Button>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">{team.scriptCount.toLocaleString('en')}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{formatDate(team.createdAt)}</Table.Cell>
    </Table.Row>
  );
}

import {
  Box,
  Button,
  Card,
  Center,
  defineStyle,
  Field,
  Flex,
  NativeSelect,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import type { AuditEntry } from '@moonrelay/contract/admin';
import type { TeamDetails, TeamMember } from '@moonrelay/contract/teams';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useRowsInView } from '../../../lib/rows-in-view.ts';
import { canWith } from '../../../lib/team-access.ts';
import {
  ACTIVITY_KINDS,
  ACTIVITY_TEXT,
  activityDetail,
  activitySentence,
  kindOf,
  type Names,
} from '../activity-text.ts';
import { useTeamActivity, type ActivityFilter } from '../api/activity.ts';
import { useRefocus } from '../use-refocus.ts';

/** The id of the text saying why the log is not shown. */
const HIDDEN_REASON_ID = 'team-activity-reason';
/** Each row's height in pixels: fixed, so the list knows where any row is without drawing it. */
const ROW_HEIGHT = 64;
const rowHeight = () => ROW_HEIGHT;
const entryId = (entry: AuditEntry) => entry.id;
/** Rows drawn past each edge of the view, so Tab and the arrows always have a row to reach. */
const OVERSCAN = 8;

/**
 * The log's look, set once on its scroll area: rows are plain elements with class names, and an
 * entry's kind (members, moderation, keys, schedules) marks its edge through `data-kind`.
 */
const ACTIVITY_CSS = defineStyle({
  height: 'min(60vh, 36rem)',
  overflowY: 'auto',
  borderWidth: '1px',
  borderRadius: 'md',
  // No scroll anchoring: the browser keeping a row in place as the space above changes would scroll again.
  overflowAnchor: 'none',
  '& .activity-list': { listStyleType: 'none' },
  '& .activity-row': {
    height: `${ROW_HEIGHT}px`,
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    gap: '0.5',
    px: '4',
    borderBottomWidth: '1px',
    borderLeftWidth: '3px',
    borderLeftColor: 'transparent',
    minWidth: 0,
  },
  '& .activity-row[data-kind="members"]': { borderLeftColor: 'purple.solid' },
  '& .activity-row[data-kind="moderation"]': { borderLeftColor: 'orange.solid' },
  '& .activity-row[data-kind="keys"]': { borderLeftColor: 'blue.solid' },
  '& .activity-row[data-kind="schedules"]': { borderLeftColor: 'teal.solid' },
  '& .activity-sentence, & .activity-meta': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .activity-meta': { fontSize: 'sm', color: 'fg.muted' },
});

/**
 * The team's activity log on its Team screen, for members holding audit.read: what happened, in
 * words, newest first, filtered on the server by kind and by person, older entries by "Load
 * more". Others see the section's title and why the log is not shown to them; nothing is asked.
 */
export function TeamActivity({ team }: { team: TeamDetails }) {
  const read = canWith(new Set(team.permissions), 'audit.read');
  return (
    <Card.Root>
      <Card.Header>
        <Stack gap="1">
          <Card.Title as="h2">{ACTIVITY_TEXT.title}</Card.Title>
          <Text fontSize="sm" color="fg.muted" id={read.allowed ? undefined : HIDDEN_REASON_ID}>
            {read.allowed ? ACTIVITY_TEXT.description : ACTIVITY_TEXT.hidden(read.reason ?? '')}
          </Text>
        </Stack>
      </Card.Header>
      {read.allowed && (
        <Card.Body>
          <ActivityLog teamId={team.id} members={team.memberList} />
        </Card.Body>
      )}
    </Card.Root>
  );
}

function ActivityLog({ teamId, members }: { teamId: string; members: readonly TeamMember[] }) {
  const [filter, setFilter] = useState<ActivityFilter>({ action: '', actorId: '' });
  const activity = useTeamActivity(teamId, filter, true);
  const entries = useMemo(() => activity.data?.pages.flatMap((page) => page.items) ?? [], [activity.data]);
  const end = useRefocus<HTMLParagraphElement>();

  // Usernames, as entries name their actors: the members', and those the entries kept of people
  // who have left since.
  const names = useMemo(() => {
    const known = new Map<string, string>();
    for (const entry of entries) if (entry.actorId && entry.actorName) known.set(entry.actorId, entry.actorName);
    for (const member of members) known.set(member.userId, member.username);
    return known;
  }, [entries, members]);

  const loadMore = () =>
    void activity.fetchNextPage().then((result) => {
      // The button goes with the last page: the focus goes to the line saying so.
      if (!result.hasNextPage && !result.isError) end.refocus();
    });

  const filtered = Boolean(filter.action || filter.actorId);
  let content;
  if (activity.isPending) {
    content = (
      <Center h="full">
        <Spinner />
      </Center>
    );
  } else if (activity.isError && entries.length === 0) {
    content = (
      <Center h="full">
        <Stack align="center" gap="3" px="4" textAlign="center">
          <Text color="fg.error">
            {ACTIVITY_TEXT.loadFailed} {messageOf(activity.error, '')}
          </Text>
          <Button size="sm" variant="outline" onClick={() => void activity.refetch()}>
            {ACTIVITY_TEXT.retry}
          </Button>
        </Stack>
      </Center>
    );
  } else if (entries.length === 0) {
    content = (
      <Center h="full">
        <Text color="fg.muted">{filtered ? ACTIVITY_TEXT.emptyFiltered : ACTIVITY_TEXT.empty}</Text>
      </Center>
    );
  }

  return (
    <Stack gap="3">
      <Flex gap="3" wrap="wrap">
        <Field.Root flex="1 1 12rem">
          <Field.Label>{ACTIVITY_TEXT.kindLabel}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              value={filter.action}
              onChange={(event) => setFilter({ ...filter, action: event.target.value })}
            >
              {ACTIVITY_KINDS.map((kind) => (
                <option key={kind.action} value={kind.action}>
                  {kind.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root flex="1 1 12rem">
          <Field.Label>{ACTIVITY_TEXT.personLabel}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              value={filter.actorId}
              onChange={(event) => setFilter({ ...filter, actorId: event.target.value })}
            >
              <option value="">{ACTIVITY_TEXT.everyone}</option>
              {members.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.name} (@{member.username})
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Flex>
      {content ? (
        <Box css={ACTIVITY_CSS} aria-busy={activity.isPending || undefined}>
          {content}
        </Box>
      ) : (
        <ActivityRows entries={entries} names={names} more={activity.hasNextPage} />
      )}
      <Flex justify="space-between" align="center" gap="3" wrap="wrap" minH="8">
        <Text fontSize="sm" color="fg.muted">
          {entries.length > 0 && ACTIVITY_TEXT.shown(entries.length)}
        </Text>
        {activity.isFetchNextPageError && (
          <Text fontSize="sm" color="fg.error">
            {ACTIVITY_TEXT.moreFailed} {messageOf(activity.error, '')}
          </Text>
        )}
        {activity.hasNextPage ? (
          <Button
            size="sm"
            variant="outline"
            onClick={loadMore}
            loading={activity.isFetchingNextPage}
            loadingText={ACTIVITY_TEXT.loadingMore}
          >
            {ACTIVITY_TEXT.loadMore}
          </Button>
        ) : (
          entries.length > 0 && (
            <Text ref={end.target} tabIndex={-1} fontSize="sm" color="fg.muted">
              {ACTIVITY_TEXT.start}
            </Text>
          )
        )}
      </Flex>
    </Stack>
  );
}

/**
 * The entries as a list that draws only the rows in view: thousands of entries cost the page what
 * a screenful does. The scroll area is a tab stop while it scrolls, so a keyboard can scroll it.
 */
function ActivityRows({ entries, names, more }: { entries: AuditEntry[]; names: Names; more: boolean }) {
  const { scrollerRef, tabIndex, drawn, before, after } = useRowsInView(entries, {
    keyOf: entryId,
    estimateSize: rowHeight,
    overscan: OVERSCAN,
    screenful: ROW_HEIGHT * 20,
  });

  return (
    <Box
      ref={scrollerRef}
      tabIndex={tabIndex}
      role="region"
      aria-label={ACTIVITY_TEXT.listLabel}
      focusVisibleRing="inside"
      css={ACTIVITY_CSS}
    >
      <ul className="activity-list">
        {before > 0 && <li aria-hidden style={{ height: before }} />}
        {drawn.map(({ index }) => {
          const entry = entries[index]!;
          const sentence = activitySentence(entry, names);
          const detail = activityDetail(entry);
          const when = formatDateTime(entry.createdAt);
          return (
            <li
              key={entry.id}
              className="activity-row"
              data-kind={kindOf(entry.action)}
              data-testid="activity-entry"
              aria-posinset={index + 1}
              // Unknown while older pages remain.
              aria-setsize={more ? -1 : entries.length}
            >
              <span className="activity-sentence" title={sentence}>
                {sentence}
              </span>
              <span className="activity-meta" title={detail ? `${when} · ${detail}` : when}>
                <time dateTime={entry.createdAt}>{when}</time>
                {detail && ` · ${detail}`}
              </span>
            </li>
          );
        })}
        {after > 0 && <li aria-hidden style={{ height: after }} />}
      </ul>
    </Box>
  );
}

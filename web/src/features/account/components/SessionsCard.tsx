import { Alert, Badge, Box, Button, Card, Center, defineStyle, Spinner, Stack, Text } from '@chakra-ui/react';
import { LogOut, Monitor, Smartphone } from 'lucide-react';
import type { SessionInfo } from '@moonrelay/contract/sessions';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDateTime, timeAgo } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useSignInMethods } from '../api/google-link.ts';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/sessions.ts';
import { howSignedIn, SESSIONS_TEXT } from '../security-text.ts';

/**
 * The list's look, set once on its container: rows are plain elements with class names and data
 * attributes, so a row costs no style computation of its own (the rule console-styles.ts states).
 * This device's row is told by `data-current`, not by props that differ per row.
 */
const SESSION_LIST_CSS = defineStyle({
  listStyleType: 'none',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  '& .session-row': {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    columnGap: '4',
    rowGap: '2',
    p: '3',
    borderWidth: '1px',
    borderRadius: 'md',
  },
  '& .session-row[data-current]': { borderColor: 'border.emphasized', bg: 'bg.subtle' },
  '& .session-main': { display: 'flex', gap: '3', minWidth: 0, flex: '1 1 16rem' },
  '& .session-icon': { flexShrink: 0, mt: '0.5', color: 'fg.muted' },
  '& .session-text': { display: 'flex', flexDirection: 'column', gap: '0.5', minWidth: 0 },
  '& .session-title': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' },
  '& .session-browser': { fontWeight: 'semibold', overflowWrap: 'anywhere' },
  '& .session-detail': { fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' },
  // On a phone End wraps under the text: lined up with it, not with the icon.
  '& .session-end': { ms: { base: '8', sm: '0' } },
});

/** A phone or tablet by its User-Agent: only the icon depends on it. */
const looksMobile = (userAgent: string | null) => /Mobi|Android|iPhone|iPad/i.test(userAgent ?? '');

function SessionRow({
  session,
  provider,
  onEnd,
  ending,
}: {
  session: SessionInfo;
  provider: string;
  onEnd: (session: SessionInfo) => void;
  ending: boolean;
}) {
  const Icon = looksMobile(session.userAgent) ? Smartphone : Monitor;
  const detailsId = `session-${session.id}-details`;
  const lastUsed = [SESSIONS_TEXT.lastUsed(timeAgo(session.lastUsedAt))];
  if (session.lastAddress) lastUsed.push(SESSIONS_TEXT.from(session.lastAddress));
  return (
    <li className="session-row" data-current={session.current || undefined} aria-label={session.browser}>
      <div className="session-main">
        <Icon className="session-icon" size={20} aria-hidden />
        <div className="session-text" id={detailsId}>
          <div className="session-title">
            <span className="session-browser">{session.browser}</span>
            {session.current && <Badge colorPalette="green">{SESSIONS_TEXT.thisDevice}</Badge>}
          </div>
          <span className="session-detail">
            {howSignedIn(session, provider)} · {SESSIONS_TEXT.created(formatDateTime(session.createdAt))}
          </span>
          <span className="session-detail">
            {lastUsed.join(' ')}
            {session.signInAddress && session.signInAddress !== session.lastAddress
              ? ` · ${SESSIONS_TEXT.signInFrom(session.signInAddress)}`
              : ''}
          </span>
        </div>
      </div>
      {!session.current && (
        <Button
          className="session-end"
          size="sm"
          variant="outline"
          colorPalette="red"
          onClick={() => onEnd(session)}
          loading={ending}
          aria-label={SESSIONS_TEXT.endLabel(session.browser)}
          aria-describedby={detailsId}
        >
          {SESSIONS_TEXT.end}
        </Button>
      )}
    </li>
  );
}

/**
 * Settings → Sessions: every browser and device signed in to the account, this one first and
 * marked, each other one with End; and one button to sign out all the others. The server's
 * message after ending says how many went.
 */
export function SessionsCard() {
  const sessions = useSessions();
  const methods = useSignInMethods();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const provider = methods.data?.google.name ?? 'Google';

  const ended = (message: string) => notify({ title: message });
  const endOne = (session: SessionInfo) =>
    end.mutate(session.id, {
      onSuccess: ({ message }) => ended(message),
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, SESSIONS_TEXT.endFailed) }),
    });
  const endAllOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ message }) => ended(message),
      onError: (error) =>
        notify({ type: 'error', title: 'Error', description: messageOf(error, SESSIONS_TEXT.endOthersFailed) }),
    });

  let body;
  let others = 0;
  if (sessions.isPending) {
    body = (
      <Center py="4">
        <Spinner />
      </Center>
    );
  } else if (sessions.isError) {
    body = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(sessions.error, SESSIONS_TEXT.loadFailed)}</Alert.Title>
      </Alert.Root>
    );
  } else {
    // This device first, then the most recently used.
    const list = sessions.data.sessions.toSorted(
      (a, b) => Number(b.current) - Number(a.current) || Date.parse(b.lastUsedAt) - Date.parse(a.lastUsedAt),
    );
    others = list.filter((session) => !session.current).length;
    body = (
      <Stack gap="3">
        <Box as="ul" css={SESSION_LIST_CSS} aria-label={SESSIONS_TEXT.listLabel} data-testid="session-list">
          {list.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              provider={provider}
              onEnd={endOne}
              ending={end.isPending && end.variables === session.id}
            />
          ))}
        </Box>
        {others === 0 && (
          <Text color="fg.muted" fontSize="sm">
            {SESSIONS_TEXT.onlyThis}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Card.Root id="sessions">
      <Card.Header>
        <Card.Title as="h2">{SESSIONS_TEXT.title}</Card.Title>
        <Card.Description>{SESSIONS_TEXT.intro}</Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
      {others > 0 && (
        <Card.Footer>
          <Button variant="outline" colorPalette="red" onClick={endAllOthers} loading={endOthers.isPending}>
            <LogOut /> {SESSIONS_TEXT.endOthers}
          </Button>
        </Card.Footer>
      )}
    </Card.Root>
  );
}

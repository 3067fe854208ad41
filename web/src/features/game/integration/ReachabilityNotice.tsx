import { Alert, Link, Stack, Text } from '@chakra-ui/react';
import type { IntegrationReachability } from '@moonrelay/contract/game';
import { ExternalLink } from 'lucide-react';
import { CONNECT_GUIDE_TITLE, CONNECT_GUIDE_URL } from './connect-guide.ts';
import { REACHABILITY_NOTICE } from './connect-text.ts';

/** The guide, opened beside the dashboard so the scripts stay where they are. */
function GuideLink() {
  return (
    <Link
      href={CONNECT_GUIDE_URL}
      target="_blank"
      rel="noopener"
      colorPalette="purple"
      variant="underline"
      fontWeight="medium"
      data-testid="connect-guide-link"
    >
      {CONNECT_GUIDE_TITLE} <ExternalLink size={14} aria-hidden />
    </Link>
  );
}

interface NoticeProps {
  status: 'warning' | 'info';
  title: string;
  lines: string[];
  guide: boolean;
  testId: string;
}

function Notice({ status, title, lines, guide, testId }: NoticeProps) {
  return (
    <Alert.Root status={status} data-testid={testId} alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content minW="0">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>
          <Stack gap="1" mt="1">
            {lines.map((line) => (
              // The title carries the status colour; the sentences are read in the plain one.
              <Text key={line} fontSize="sm" color="fg" overflowWrap="anywhere">
                {line}
              </Text>
            ))}
            {guide && (
              <Text fontSize="sm">
                <GuideLink />
              </Text>
            )}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * Beside the scripts: whether a game on Roblox can reach the address they carry, and what to do
 * when it cannot. The server words it for the reader (an admin is told what to set, a member whom
 * to ask); the guide is linked for whoever can act on it.
 */
export function ReachabilityNotice({
  reachability,
  isAdmin,
}: {
  reachability: IntegrationReachability;
  isAdmin: boolean;
}) {
  if (!reachability.reachable) {
    return (
      <Notice
        status="warning"
        title={REACHABILITY_NOTICE.unreachableTitle}
        lines={[reachability.problem, reachability.fix].filter((line): line is string => Boolean(line))}
        guide={isAdmin}
        testId="reachability-notice"
      />
    );
  }
  if (reachability.note) {
    return (
      <Notice
        status="info"
        title={REACHABILITY_NOTICE.plainHttpTitle}
        lines={[reachability.note]}
        guide={isAdmin}
        testId="reachability-notice"
      />
    );
  }
  return null;
}

/** In place of the scripts, when this host is not one Moonrelay writes into them. */
export function HostNotServedNotice({ isAdmin }: { isAdmin: boolean }) {
  if (!isAdmin) {
    return (
      <Notice
        status="info"
        title={REACHABILITY_NOTICE.notServedMemberTitle}
        lines={[REACHABILITY_NOTICE.notServedMember]}
        guide={false}
        testId="host-not-served"
      />
    );
  }
  return (
    <Notice
      status="warning"
      title={REACHABILITY_NOTICE.notServedAdminTitle}
      lines={[REACHABILITY_NOTICE.notServedAdmin(window.location.host), REACHABILITY_NOTICE.notServedAdminFix]}
      guide
      testId="host-not-served"
    />
  );
}

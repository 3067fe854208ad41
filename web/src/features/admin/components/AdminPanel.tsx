import { Badge, Box, Flex, Stack, Tabs, Text } from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useAuditLog } from '../api/audit.ts';
import { useAdminConnections } from '../api/connections.ts';
import { useRecentExecutions } from '../api/recent-executions.ts';
import { useAdminTeams } from '../api/teams.ts';
import { useAdminUsers } from '../api/users.ts';
import { ADMIN_TEXT } from '../admin-text.ts';
import { AdminsOnly } from './AdminsOnly.tsx';
import { AuditLogTab } from './audit/AuditLogTab.tsx';
import { ConnectionsTab } from './connections/ConnectionsTab.tsx';
import { RecentExecutionsTab } from './executions/RecentExecutionsTab.tsx';
import { MassExecutionTab } from './mass/MassExecutionTab.tsx';
import { TeamsTab } from './teams/TeamsTab.tsx';
import { UsersTab } from './users/UsersTab.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';

export const ADMIN_TABS = ['users', 'teams', 'connections', 'mass', 'executions', 'audit'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

const isTab = (value: string | null): value is AdminTab => ADMIN_TABS.includes(value as AdminTab);

/** The account feature's current-user query (its key is its GET path). */
const CURRENT_USER_QUERY_KEY = ['/api/user'] as const;

const withCount = (label: string, count: number | undefined) => (count === undefined ? label : `${label} (${count})`);

/**
 * The Admin Panel (spec section 2): an Admin Access badge and six tabs. The lists are fetched here,
 * so each tab's count shows whichever tab is open; the open tab is in the address (?tab=).
 */
export function AdminPanel({ currentUserId }: { currentUserId: string | undefined }) {
  const [params, setParams] = useSearchParams();
  const tab: AdminTab = isTab(params.get('tab')) ? (params.get('tab') as AdminTab) : 'users';
  const [pages, setPages] = useState<Record<Exclude<AdminTab, 'mass'>, number>>({
    users: 1,
    teams: 1,
    connections: 1,
    executions: 1,
    audit: 1,
  });
  const turn = (list: keyof typeof pages) => (page: number) => setPages((current) => ({ ...current, [list]: page }));

  const users = useAdminUsers(pages.users);
  const teams = useAdminTeams(pages.teams);
  const connections = useAdminConnections(pages.connections);
  const executions = useRecentExecutions(pages.executions);
  const audit = useAuditLog(pages.audit);

  // The server says this session is no admin (demoted meanwhile): who the user is gets fetched again.
  const forbidden = [users, teams, connections, executions, audit].some(
    (query) => query.error instanceof ApiError && query.error.status === 403,
  );
  useEffect(() => {
    if (forbidden) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
  }, [forbidden]);
  if (forbidden) return <AdminsOnly />;

  return (
    <Stack gap="6">
      <Flex justify="space-between" align="flex-start" wrap="wrap" gap="4">
        <Box>
          <PageHeading>{ADMIN_TEXT.title}</PageHeading>
          <Text color="fg.muted">{ADMIN_TEXT.subtitle}</Text>
        </Box>
        <Badge colorPalette="purple" size="lg" variant="solid" data-testid="admin-access">
          <ShieldCheck size={14} /> {ADMIN_TEXT.badge}
        </Badge>
      </Flex>
      <Tabs.Root
        value={tab}
        onValueChange={(event) => setParams({ tab: event.value }, { replace: true })}
        lazyMount
        variant="line"
        colorPalette="purple"
      >
        <Tabs.List flexWrap="wrap">
          <Tabs.Trigger value="users">{withCount(ADMIN_TEXT.tabs.users, users.data?.total)}</Tabs.Trigger>
          <Tabs.Trigger value="teams">{withCount(ADMIN_TEXT.tabs.teams, teams.data?.total)}</Tabs.Trigger>
          <Tabs.Trigger value="connections">
            {withCount(ADMIN_TEXT.tabs.connections, connections.data?.connected)}
          </Tabs.Trigger>
          <Tabs.Trigger value="mass">{ADMIN_TEXT.tabs.mass}</Tabs.Trigger>
          <Tabs.Trigger value="executions">
            {withCount(ADMIN_TEXT.tabs.executions, executions.data?.total)}
          </Tabs.Trigger>
          <Tabs.Trigger value="audit">{ADMIN_TEXT.tabs.audit}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="users">
          <UsersTab users={users} page={pages.users} onPage={turn('users')} currentUserId={currentUserId} />
        </Tabs.Content>
        <Tabs.Content value="teams">
          <TeamsTab teams={teams} page={pages.teams} onPage={turn('teams')} />
        </Tabs.Content>
        <Tabs.Content value="connections">
          <ConnectionsTab connections={connections} page={pages.connections} onPage={turn('connections')} />
        </Tabs.Content>
        <Tabs.Content value="mass">
          <MassExecutionTab />
        </Tabs.Content>
        <Tabs.Content value="executions">
          <RecentExecutionsTab executions={executions} page={pages.executions} onPage={turn('executions')} />
        </Tabs.Content>
        <Tabs.Content value="audit">
          <AuditLogTab audit={audit} page={pages.audit} onPage={turn('audit')} />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

import { Box, Button, Menu, Spinner, Text } from '@chakra-ui/react';
import { ChevronsUpDown, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useCurrentTeam, useTeams } from '../../../lib/team-access.ts';
import { useTeam } from '../../../lib/team.ts';
import { roleText, TEAM_TEXT } from '../team-text.ts';
import { useOpenTeam } from '../use-open-team.ts';
import { CreateTeamDialog } from './CreateTeamDialog.tsx';

const CREATE_VALUE = 'create-team';

/**
 * The team the dashboard acts on, with the person's role in it; its menu lists their teams (their
 * own account first), switches between them and creates one. A Chakra menu: arrow keys move,
 * Enter chooses, Escape closes. Not in a portal: in the phone's navigation drawer the menu must
 * stay inside the drawer, which keeps the focus.
 */
export function TeamSwitcher() {
  const teams = useTeams();
  const current = useCurrentTeam();
  const teamId = useTeam((state) => state.teamId);
  const openTeam = useOpenTeam();
  const [creating, setCreating] = useState(false);
  // The dialog opens once the menu has closed: the menu gives the focus back to its button as it
  // closes, and a dialog already open would take that as the person leaving it, and close.
  const createOnClose = useRef(false);

  const name = current?.name ?? (teams.isError ? TEAM_TEXT.loadTeamsFailed : '');
  const chosen = current?.id ?? teamId ?? '';

  return (
    <>
      <Menu.Root
        positioning={{ sameWidth: true }}
        onSelect={(details) => {
          if (details.value === CREATE_VALUE) createOnClose.current = true;
        }}
        onExitComplete={() => {
          if (!createOnClose.current) return;
          createOnClose.current = false;
          setCreating(true);
        }}
        // The list may have changed since it was read (an invitation accepted in another tab).
        onOpenChange={(details) => {
          if (details.open && !teams.isFetching) void teams.refetch();
        }}
      >
        <Menu.Trigger asChild>
          <Button
            variant="outline"
            width="full"
            height="auto"
            py="2"
            justifyContent="space-between"
            textAlign="start"
            aria-label={
              current ? `${TEAM_TEXT.switcherLabel}: ${current.name}, ${roleText(current)}` : TEAM_TEXT.switcherLabel
            }
            data-testid="team-switcher"
          >
            <Box minW="0">
              <Text fontWeight="medium" truncate>
                {teams.isPending ? <Spinner size="xs" /> : name}
              </Text>
              {current && (
                <Text fontSize="xs" color="fg.muted" fontWeight="normal" truncate>
                  {roleText(current)}
                </Text>
              )}
            </Box>
            <ChevronsUpDown />
          </Button>
        </Menu.Trigger>
        <Menu.Positioner>
          <Menu.Content maxH="70vh" overflowY="auto">
            <Menu.RadioItemGroup
              value={chosen}
              onValueChange={(details) => {
                if (details.value !== chosen) openTeam(details.value);
              }}
            >
              <Menu.ItemGroupLabel>{TEAM_TEXT.teamsGroup}</Menu.ItemGroupLabel>
              {teams.data?.map((team) => (
                <Menu.RadioItem key={team.id} value={team.id}>
                  <Box flex="1" minW="0">
                    <Text truncate>{team.name}</Text>
                    <Text fontSize="xs" color="fg.muted">
                      {roleText(team)}
                    </Text>
                  </Box>
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
            <Menu.Separator />
            {/* The click as well as the menu's selection: a tap selects no item the pointer has not
              highlighted, and the menu's onSelect reads the highlighted one. */}
            <Menu.Item value={CREATE_VALUE} onClick={() => (createOnClose.current = true)}>
              <Plus size={14} /> {TEAM_TEXT.createTeam}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Menu.Root>
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}

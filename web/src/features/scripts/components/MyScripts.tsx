import { Alert, Button, Card, Flex, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useScripts } from '../api/scripts.ts';
import { useScriptListCan } from './script-actions.tsx';
import { SCRIPT_LIST_ACTIONS } from './script-list-text.ts';
import { filterScripts, type ScriptTypeFilter } from './script-filter.ts';
import { ScriptFilters } from './ScriptFilters.tsx';
import { ScriptsTable } from './ScriptsTable.tsx';
import { ScriptCards } from './ScriptCards.tsx';
import { useNarrowScreen } from '../narrow-screen.ts';
import { PageHeading } from '../../../components/PageHeading.tsx';

/**
 * The My Scripts screen (spec section 2): every script of the user, searchable, with its actions. A
 * team member's role may not allow reading the scripts (the list is then not asked for), or some of
 * the actions: those are disabled, and the notes under the list say which permission each needs.
 */
export function MyScripts() {
  const can = useScriptListCan();
  const scripts = useScripts();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<ScriptTypeFilter>('all');
  const all = scripts.data;
  const visible = useMemo(() => filterScripts(all ?? [], search, type), [all, search, type]);
  // A phone gets cards: the table's columns do not fit it, and a table scrolling sideways hid them.
  const List = useNarrowScreen() ? ScriptCards : ScriptsTable;

  const emptyText = !all
    ? 'Loading scripts...'
    : all.length === 0
      ? 'No scripts yet. Create your first script to get started.'
      : 'No scripts match your search criteria.';

  return (
    <Stack gap="6">
      <Flex justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="4" wrap="wrap">
        <Stack gap="1">
          <PageHeading title="My Scripts">{all ? `My Scripts (${all.length})` : 'My Scripts'}</PageHeading>
          <Text color="fg.muted">Search, run, duplicate and manage your saved Lua scripts.</Text>
        </Stack>
        {/* A link cannot be disabled: without scripts.write it is a disabled button. */}
        {can.change.allowed ? (
          <Button asChild colorPalette="purple">
            <Link to="/editor">
              <Plus size={16} /> New Script
            </Link>
          </Button>
        ) : (
          <Button colorPalette="purple" disabled title={can.change.reason}>
            <Plus size={16} /> New Script
          </Button>
        )}
      </Flex>

      <Card.Root>
        <Card.Header>
          <ScriptFilters search={search} onSearchChange={setSearch} type={type} onTypeChange={setType} />
        </Card.Header>
        <Card.Body gap="4">
          {/* Not asked for where the role may not read scripts: the notes below say why. */}
          {!can.read.allowed ? null : !all && scripts.isError ? (
            // A failed refresh keeps the list it already has; the error shows only when there is none.
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Failed to load scripts</Alert.Title>
                <Alert.Description>{messageOf(scripts.error, scripts.error.message)}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <List scripts={visible} emptyText={emptyText} can={can} />
          )}
          <PermissionNotes
            notes={[
              { action: SCRIPT_LIST_ACTIONS.see, can: can.read },
              // The rows' actions where there are rows; New Script alone where there are none.
              ...(can.read.allowed
                ? [
                    { action: SCRIPT_LIST_ACTIONS.change, can: can.change },
                    { action: SCRIPT_LIST_ACTIONS.run, can: can.run },
                  ]
                : [{ action: SCRIPT_LIST_ACTIONS.create, can: can.change }]),
            ]}
          />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

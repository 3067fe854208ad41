import { Alert, Button, Card, Center, Flex, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback.ts';
import { useScriptPages } from '../api/scripts.ts';
import { useScriptListCan } from './script-actions.tsx';
import { SCRIPT_LIST_ACTIONS } from './script-list-text.ts';
import type { ScriptTypeFilter } from './script-filter.ts';
import { ScriptFilters } from './ScriptFilters.tsx';
import { ScriptsTable } from './ScriptsTable.tsx';
import { ScriptCards } from './ScriptCards.tsx';
import { useNarrowScreen } from '../narrow-screen.ts';
import { PageHeading } from '../../../components/PageHeading.tsx';

/** The list is asked for again this long after the typing stops, not on every key. */
export const SEARCH_DEBOUNCE_MS = 200;

/**
 * The My Scripts screen (spec section 2): every script of the user, searchable, with its actions.
 * The server searches and pages the list (GET /api/scripts/page, summaries without code), and the
 * rows are drawn only while in view, so a thousand scripts cost what a screenful does. A team
 * member's role may not allow reading the scripts (the list is then not asked for), or some of
 * the actions: those are disabled, and the notes under the list say which permission each needs.
 */
export function MyScripts() {
  const can = useScriptListCan();
  // The field shows each key at once; the server is asked once the typing pauses.
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const askFor = useDebouncedCallback(setQ, SEARCH_DEBOUNCE_MS);
  const [type, setType] = useState<ScriptTypeFilter>('all');
  const pages = useScriptPages({ q, type });
  const first = pages.data?.pages[0];
  const list = useMemo(() => pages.data?.pages.flatMap((page) => page.scripts) ?? [], [pages.data]);
  // The account's count, whatever the search: the heading says how many there are in all.
  const total = first?.total;
  // How many the search and type match, on every page: said once the answer is this filter's own.
  const matching = (q.trim() || type !== 'all') && first && !pages.isPlaceholderData ? first.matching : undefined;
  // A phone gets cards: the table's columns do not fit it, and a table scrolling sideways hid them.
  const List = useNarrowScreen() ? ScriptCards : ScriptsTable;
  const { fetchNextPage } = pages;
  const loadNext = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  const emptyText =
    total === undefined
      ? 'Loading scripts...'
      : total === 0
        ? 'No scripts yet. Create your first script to get started.'
        : 'No scripts match your search criteria.';

  return (
    <Stack gap="6">
      <Flex justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="4" wrap="wrap">
        <Stack gap="1">
          <PageHeading title="My Scripts">{total === undefined ? 'My Scripts' : `My Scripts (${total})`}</PageHeading>
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
          <ScriptFilters
            search={search}
            onSearchChange={(text) => {
              setSearch(text);
              askFor(text);
            }}
            type={type}
            onTypeChange={setType}
          />
          {matching !== undefined && total !== undefined && (
            <Text fontSize="sm" color="fg.muted" role="status" data-testid="scripts-matching">
              {`${matching.toLocaleString()} of ${total.toLocaleString()} ${total === 1 ? 'script' : 'scripts'} ${matching === 1 ? 'matches' : 'match'}`}
            </Text>
          )}
        </Card.Header>
        <Card.Body gap="4">
          {/* Not asked for where the role may not read scripts: the notes below say why. */}
          {!can.read.allowed ? null : !pages.data && pages.isError ? (
            // A failed refresh keeps the list it already has; the error shows only when there is none.
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Failed to load scripts</Alert.Title>
                <Alert.Description>{messageOf(pages.error, pages.error.message)}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <Stack gap="4">
              <List
                // A new search or type is a new list: it starts at its top, not where the last one
                // was scrolled to (which would also ask for its second page at once).
                key={`${type}:${q.trim()}`}
                scripts={list}
                emptyText={emptyText}
                can={can}
                more={pages.hasNextPage}
                // Not while the loaded pages are being fetched again (asked again once they have
                // come), nor again by itself after a page failed to come: the button asks again.
                loadAhead={!pages.isFetching && !pages.isFetchNextPageError}
                onNeedMore={loadNext}
              />
              {/* Scrolling loads the next page by itself; the button is the keyboard's way, and a retry. */}
              {pages.hasNextPage && (
                <Center>
                  <Button
                    variant="outline"
                    size="sm"
                    loading={pages.isFetchingNextPage}
                    onClick={() => void pages.fetchNextPage()}
                  >
                    Load more
                  </Button>
                </Center>
              )}
            </Stack>
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

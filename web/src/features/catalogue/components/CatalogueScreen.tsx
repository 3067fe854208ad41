import { Alert, Button, Center, Flex, Input, Link, SimpleGrid, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { CATALOGUE_NAME, CATALOGUE_PAGE_SIZE, CATALOGUE_SITE_URL } from '@moonrelay/contract/constants';
import { ExternalLink, Flame, House, RefreshCw, Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { timeAgo } from '../../../lib/format.ts';
import { useCataloguePage, type CatalogueView } from '../api/catalogue.ts';
import { CATALOGUE_TEXT } from '../catalogue-text.ts';
import { CataloguePager } from './CataloguePager.tsx';
import { ScriptCard } from './ScriptCard.tsx';
import { ScriptPreviewDialog } from './ScriptPreviewDialog.tsx';
import { useCatalogueActions } from './useCatalogueActions.ts';
import { PageHeading } from '../../../components/PageHeading.tsx';

type Tab = CatalogueView['tab'];

/**
 * The script catalogue (spec sections 2, 4 and 5): a search form; tabs Home, Trending and Search
 * Results (a new tab starts at page 1; a non-empty search goes to Search Results, page 1); cards
 * with Preview, Execute and Save; Previous / Next; the Preview dialog; the 'Powered by' credit.
 */
export function CatalogueScreen() {
  const [tab, setTab] = useState<Tab>('home');
  const [page, setPage] = useState(1);
  const [term, setTerm] = useState('');
  const [query, setQuery] = useState('');
  const [previewing, setPreviewing] = useState<CatalogueScript | null>(null);
  const actions = useCatalogueActions();

  const view: CatalogueView = tab === 'search' ? { tab, page, q: query } : { tab, page };

  const switchTab = (next: Tab) => {
    setTab(next);
    setPage(1);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    const q = term.trim();
    if (!q) return;
    setQuery(q);
    setTab('search');
    setPage(1);
  };

  const results = <Results view={view} onPage={setPage} onPreview={setPreviewing} actions={actions} />;

  return (
    <Stack gap="6">
      <Stack gap="1">
        <PageHeading>{CATALOGUE_TEXT.title}</PageHeading>
        <Text color="fg.muted">{CATALOGUE_TEXT.subtitle}</Text>
      </Stack>

      <form role="search" onSubmit={search}>
        <Flex gap="2">
          <Input
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder={CATALOGUE_TEXT.searchPlaceholder}
            aria-label={CATALOGUE_TEXT.searchLabel}
            maxLength={200}
          />
          <Button type="submit" colorPalette="purple">
            <Search size={16} /> {CATALOGUE_TEXT.search}
          </Button>
        </Flex>
      </form>
      {/* Once for the page, not under every card: the cards' refused buttons carry it as their title. */}
      <PermissionNotes
        notes={[
          { action: CATALOGUE_TEXT.saveAction, can: actions.can.save },
          { action: CATALOGUE_TEXT.executeAction, can: actions.can.run },
        ]}
      />

      <Tabs.Root
        value={tab}
        onValueChange={(details) => switchTab(details.value as Tab)}
        variant="line"
        lazyMount
        unmountOnExit
      >
        <Tabs.List>
          <Tabs.Trigger value="home">
            <House size={16} /> {CATALOGUE_TEXT.tabs.home}
          </Tabs.Trigger>
          <Tabs.Trigger value="trending">
            <Flame size={16} /> {CATALOGUE_TEXT.tabs.trending}
          </Tabs.Trigger>
          <Tabs.Trigger value="search">
            <Search size={16} /> {CATALOGUE_TEXT.tabs.search}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="home">{results}</Tabs.Content>
        <Tabs.Content value="trending">{results}</Tabs.Content>
        <Tabs.Content value="search">{results}</Tabs.Content>
      </Tabs.Root>

      <Text fontSize="sm" color="fg.muted" textAlign="center">
        {CATALOGUE_TEXT.poweredBy}{' '}
        <Link href={CATALOGUE_SITE_URL} target="_blank" rel="noopener noreferrer" colorPalette="purple">
          {CATALOGUE_NAME} <ExternalLink size={12} aria-hidden />
        </Link>
      </Text>

      <ScriptPreviewDialog
        script={previewing}
        onClose={() => setPreviewing(null)}
        onExecute={(script) => void actions.run(script)}
        onSaveToAutoExecute={(script) => void actions.save(script, true)}
        executing={previewing !== null && actions.executingId === previewing._id}
        saving={previewing !== null && actions.savingId === previewing._id}
        can={actions.can}
      />
    </Stack>
  );
}

interface ResultsProps {
  view: CatalogueView;
  onPage(page: number): void;
  onPreview(script: CatalogueScript): void;
  actions: ReturnType<typeof useCatalogueActions>;
}

function Results({ view, onPage, onPreview, actions }: ResultsProps) {
  const answer = useCataloguePage(view);

  if (view.tab === 'search' && view.q === '') {
    return (
      <Text color="fg.muted" py="8" textAlign="center">
        {CATALOGUE_TEXT.searchPrompt}
      </Text>
    );
  }
  if (answer.isError) {
    return (
      <Alert.Root status="error" my="4" data-testid="catalogue-error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{messageOf(answer.error, CATALOGUE_TEXT.unavailableTitle)}</Alert.Title>
          <Alert.Description>{CATALOGUE_TEXT.unavailable}</Alert.Description>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={() => void answer.refetch()} loading={answer.isFetching}>
          <RefreshCw size={14} /> {CATALOGUE_TEXT.retry}
        </Button>
      </Alert.Root>
    );
  }
  if (!answer.data) {
    return (
      <Center py="12" gap="2" color="fg.muted">
        <Spinner size="sm" /> {CATALOGUE_TEXT.loading}
      </Center>
    );
  }

  const { scripts, nextPage } = answer.data.result;
  const { stale } = answer.data;
  // Spec section 5: Next is off under a full page; the answer also says when there is no next page.
  const hasNext = scripts.length >= CATALOGUE_PAGE_SIZE && nextPage !== null;
  return (
    <Stack gap="5" pt="4">
      {stale && (
        <Alert.Root status="info" data-testid="catalogue-stale">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{CATALOGUE_TEXT.stale(timeAgo(stale.fetchedAt))}</Alert.Title>
            <Alert.Description>{CATALOGUE_TEXT.staleNote}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {scripts.length === 0 ? (
        <Text color="fg.muted" py="8" textAlign="center">
          {CATALOGUE_TEXT.empty}
        </Text>
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3, '2xl': 4 }} gap="4">
          {scripts.map((script) => (
            <ScriptCard
              key={script._id}
              script={script}
              onPreview={() => onPreview(script)}
              onExecute={() => void actions.run(script)}
              onSave={() => void actions.save(script, false)}
              executing={actions.executingId === script._id}
              saving={actions.savingId === script._id}
              can={actions.can}
            />
          ))}
        </SimpleGrid>
      )}
      <CataloguePager page={view.page} hasNext={hasNext} onPage={onPage} />
    </Stack>
  );
}

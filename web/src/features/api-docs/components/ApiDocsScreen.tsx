import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Code,
  HStack,
  SimpleGrid,
  Spinner,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { CodeValue } from '../../../components/CodeValue.tsx';
import { useDeferredValue, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_API_DOCS_TAB, type ApiDocsTabId } from '@moonrelay/contract/api-docs';
import { APP_VERSION } from '@moonrelay/contract/constants';
import {
  CLOUD_EXECUTION_ID_PLACEHOLDER,
  EXECUTION_ID_PLACEHOLDER,
  INVITATION_ID_PLACEHOLDER,
  INVITATION_TOKEN_PLACEHOLDER,
  MEMBER_ID_PLACEHOLDER,
  SCHEDULE_ID_PLACEHOLDER,
  SCRIPT_ID_PLACEHOLDER,
  SCRIPT_TOKEN_PLACEHOLDER,
  SESSION_TOKEN_PLACEHOLDER,
  SHARE_ID_PLACEHOLDER,
  SHARE_TOKEN_PLACEHOLDER,
  TEAM_ID_PLACEHOLDER,
  TEMP_SCRIPT_ID_PLACEHOLDER,
  USER_ID_PLACEHOLDER,
} from '@moonrelay/contract/examples';
import { messageOf } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useOpenApiDocument } from '../api/openapi.ts';
import { buildDocs } from '../docs-model.ts';
import { API_KEY_PLACEHOLDER_TEXT, DOCS_SUBTITLE, DOCS_TITLE } from '../docs-text.ts';
import { CopyCodeButton } from './CopyCodeButton.tsx';
import { DocsFooter } from './DocsFooter.tsx';
import { EndpointCard } from './EndpointCard.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';

function ValueCard({
  title,
  description,
  value,
  copyLabel,
}: {
  title: string;
  description: string;
  value: string | null;
  copyLabel: string;
}) {
  return (
    <Card.Root size="sm" role="region" aria-label={title}>
      <Card.Header>
        <Card.Title as="h2">{title}</Card.Title>
        <Card.Description>{description}</Card.Description>
      </Card.Header>
      <Card.Body>
        <HStack gap="2">
          <CodeValue value={value} placeholder={API_KEY_PLACEHOLDER_TEXT} />
          {value && <CopyCodeButton value={value} label={copyLabel} />}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/** What the reader puts in place of each placeholder the examples keep. */
const PLACEHOLDERS: { names: string[]; meaning: string }[] = [
  { names: [SESSION_TOKEN_PLACEHOLDER], meaning: 'the token that login or register answered' },
  { names: [SCRIPT_ID_PLACEHOLDER], meaning: 'the id of one of your scripts' },
  {
    names: [TEMP_SCRIPT_ID_PLACEHOLDER, SCRIPT_TOKEN_PLACEHOLDER],
    meaning: 'the id and key in the url that POST /api/scripts/temp answered',
  },
  { names: [EXECUTION_ID_PLACEHOLDER], meaning: 'the executionId that an execute call answered' },
  {
    names: [CLOUD_EXECUTION_ID_PLACEHOLDER],
    meaning: 'the executionId of a run in Roblox (target "cloud") still waiting for Roblox',
  },
  { names: [SCHEDULE_ID_PLACEHOLDER], meaning: 'the id of one of your schedules' },
  {
    names: [TEAM_ID_PLACEHOLDER, MEMBER_ID_PLACEHOLDER],
    meaning: 'the id of a team you belong to (GET /api/teams), and the userId of one of its members',
  },
  {
    names: [INVITATION_ID_PLACEHOLDER, INVITATION_TOKEN_PLACEHOLDER, SHARE_ID_PLACEHOLDER, SHARE_TOKEN_PLACEHOLDER],
    meaning: 'the id and token that inviting to a team or sharing a script answered (the token ends the link)',
  },
  { names: [USER_ID_PLACEHOLDER], meaning: 'your own id, as GET /api/user answers it' },
];

/**
 * The API docs (spec section 2, API Docs), built from the live GET /api/openapi.json and the
 * examples kept beside the contract. The examples carry the reader's own API key and this
 * server's address, so what is copied runs as it is. The tab is kept in the URL (?tab=game).
 */
export function ApiDocsScreen() {
  const apiKey = useSession((state) => state.user?.apiKey ?? null);
  const document = useOpenApiDocument();
  // The endpoint cards are a large render: done as a deferred (interruptible) render once the
  // document is in, so it never holds the main thread in one long task.
  const loaded = useDeferredValue(document.data);
  const tabs = useMemo(() => (loaded ? buildDocs(loaded) : []), [loaded]);
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab = tabs.some((t) => t.id === requested) ? (requested as ApiDocsTabId) : DEFAULT_API_DOCS_TAB;
  const origin = window.location.origin;
  const context = useMemo(() => ({ origin, apiKey }), [origin, apiKey]);

  let content;
  if (loaded) {
    content = (
      <Tabs.Root
        value={tab}
        onValueChange={({ value }) =>
          setSearch(value === DEFAULT_API_DOCS_TAB ? {} : { tab: value }, { replace: true })
        }
        variant="enclosed"
        lazyMount
        unmountOnExit
      >
        {/* Wraps onto a second row on a phone rather than widening the page. */}
        <Tabs.List flexWrap="wrap">
          {tabs.map((t) => (
            <Tabs.Trigger key={t.id} value={t.id}>
              {t.label}
              <Badge size="xs" variant="subtle">
                {t.endpoints.length}
              </Badge>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {tabs.map((t) => (
          <Tabs.Content key={t.id} value={t.id}>
            <Stack gap="4">
              {t.endpoints.map((endpoint) => (
                <EndpointCard key={endpoint.name} endpoint={endpoint} context={context} />
              ))}
            </Stack>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    );
  } else if (document.isError) {
    content = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>The API description could not be loaded.</Alert.Title>
          <Alert.Description>{messageOf(document.error, 'Please try again.')}</Alert.Description>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={() => void document.refetch()}>
          Retry
        </Button>
      </Alert.Root>
    );
  } else {
    content = (
      <Center py="10">
        <Spinner />
      </Center>
    );
  }

  return (
    <Stack gap="6" maxW="6xl">
      <Box>
        <HStack gap="3" wrap="wrap">
          <PageHeading>{DOCS_TITLE}</PageHeading>
          <Badge colorPalette="purple" variant="subtle" size="lg">
            {APP_VERSION}
          </Badge>
        </HStack>
        <Text color="fg.muted">{DOCS_SUBTITLE}</Text>
      </Box>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <ValueCard
          title="Your API Key"
          description="Send it as Authorization: Bearer <key>. The examples below already carry it. Keep it secret."
          value={apiKey}
          copyLabel="Copy API key"
        />
        <ValueCard
          title="Base URL"
          description="Every endpoint below is under this address."
          value={`${origin}/api`}
          copyLabel="Copy base URL"
        />
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted" mb="-4">
        The examples carry your API key and this server’s address. Put your own values in place of:
      </Text>
      <Stack as="ul" gap="1" fontSize="sm" color="fg.muted" aria-label="Placeholders in the examples">
        {PLACEHOLDERS.map(({ names, meaning }) => (
          <HStack as="li" key={names.join()} gap="1.5" wrap="wrap">
            {names.map((name) => (
              <Code key={name} size="sm">
                {name}
              </Code>
            ))}
            <Text as="span">— {meaning}</Text>
          </HStack>
        ))}
      </Stack>
      {content}
      {/* Below the endpoints only once they are in: shown under the spinner, it would jump down. */}
      {(loaded || document.isError) && <DocsFooter />}
    </Stack>
  );
}

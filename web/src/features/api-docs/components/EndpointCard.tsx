import { Badge, Box, Card, Code, Heading, HStack, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { Info, Lock, Timer } from 'lucide-react';
import { useMemo } from 'react';
import { renderSnippets, withKey, type SnippetContext } from '@moonrelay/contract/example-snippets';
import type { DocsEndpoint, DocsExample } from '../docs-model.ts';
import { EXAMPLE_LANGUAGES, METHOD_COLORS } from '../docs-text.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { FieldTable } from './FieldTable.tsx';

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

const AUTH_NOTE: Record<DocsEndpoint['auth'], string | null> = {
  none: null,
  session: 'A signed-in session: the token from login (an API key is refused with 403).',
  admin: 'An admin’s signed-in session.',
  'session-or-key': 'Your API key (or a session token) as a Bearer token.',
  'game-key': 'Your API key as key, in the request itself (no Authorization header).',
};

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="2">
      <Heading as="h3" size="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** How the credential travels, for the way shown (and the body key an endpoint also takes). */
function authNote(endpoint: DocsEndpoint, way: DocsExample): string | null {
  const note = AUTH_NOTE[way.auth];
  if (way.auth === 'session-or-key' && endpoint.keyInBody) {
    return `${note} Or, as a game sends it, your API key as key in the body (no Authorization header).`;
  }
  return note;
}

/** One endpoint: what it is, how to call it, what it answers, and examples to copy. */
export function EndpointCard({ endpoint, context }: { endpoint: DocsEndpoint; context: SnippetContext }) {
  const title = `${endpoint.method} ${endpoint.path}`;
  const authRequired = endpoint.auth !== 'none';
  const [first] = endpoint.examples;

  return (
    <Card.Root role="article" aria-label={title} data-testid="endpoint-card" size="sm">
      <Card.Header gap="2">
        <HStack gap="2" wrap="wrap">
          <Badge
            colorPalette={METHOD_COLORS[endpoint.method] ?? 'gray'}
            variant="solid"
            // One shade darker than the palette's solid: white on green.600 is 3.3:1, on green.700 5:1.
            bg="colorPalette.700"
            color="white"
            fontFamily="mono"
          >
            {endpoint.method}
          </Badge>
          <Code fontSize="sm" fontWeight="semibold" bg="transparent" px="0">
            {endpoint.path}
          </Code>
          {authRequired && (
            <Badge colorPalette="purple" variant="subtle">
              <Lock size={12} /> Auth Required
            </Badge>
          )}
          <Badge variant="outline" data-testid="rate-limit">
            <Timer size={12} />{' '}
            {endpoint.rateLimit.perMinute === null
              ? 'Not rate-limited'
              : `${endpoint.rateLimit.perMinute.toLocaleString('en')} requests / minute`}
          </Badge>
        </HStack>
        <Text color="fg.muted" fontSize="sm">
          <WithInlineCode text={endpoint.summary} />
        </Text>
      </Card.Header>
      <Card.Body>
        {endpoint.examples.length > 1 ? (
          // Only the way shown is mounted, so each way's tabs and copy buttons are the card's only ones.
          <Tabs.Root defaultValue="0" size="sm" variant="subtle" lazyMount unmountOnExit>
            <Tabs.List aria-label={`Ways to call ${title}`} flexWrap="wrap" mb="4">
              {endpoint.examples.map((way, index) => (
                <Tabs.Trigger key={way.title ?? index} value={String(index)}>
                  {way.title}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {endpoint.examples.map((way, index) => (
              <Tabs.Content key={way.title ?? index} value={String(index)}>
                <WayToCall endpoint={endpoint} way={way} context={context} title={title} />
              </Tabs.Content>
            ))}
          </Tabs.Root>
        ) : (
          first && <WayToCall endpoint={endpoint} way={first} context={context} title={title} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** One way of calling an endpoint: headers, parameters, body, answers and examples to copy. */
function WayToCall(props: { endpoint: DocsEndpoint; way: DocsExample; context: SnippetContext; title: string }) {
  const { endpoint, way, context, title } = props;
  const { example } = way;
  const snippets = useMemo(() => renderSnippets(way.snippet, context), [way.snippet, context]);
  const note = authNote(endpoint, way);

  return (
    <Stack gap="5">
      <Section title="Request headers">
        {way.headers.length ? (
          <Table.Root size="sm" variant="outline" aria-label={`Headers of ${title}`}>
            <Table.Body>
              {way.headers.map((header) => (
                <Table.Row key={header.name}>
                  <Table.Cell width="40">
                    <Code size="sm">{header.name}</Code>
                  </Table.Cell>
                  <Table.Cell fontFamily="mono" fontSize="xs">
                    {header.value}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            None.
          </Text>
        )}
        {note && (
          <Text fontSize="xs" color="fg.muted">
            {note}
          </Text>
        )}
      </Section>

      {endpoint.pathParams.length > 0 && (
        <Section title="URL parameters">
          <FieldTable fields={endpoint.pathParams} label={`URL parameters of ${title}`} />
        </Section>
      )}
      {endpoint.queryParams.length > 0 && (
        <Section title="Query parameters">
          <FieldTable fields={endpoint.queryParams} label={`Query parameters of ${title}`} />
        </Section>
      )}
      {example.body && (
        <Section title="Request body">
          <FieldTable fields={endpoint.bodyFields} label={`Body of ${title}`} />
          <CodeBlock
            code={json(withKey(example.body, context.apiKey))}
            caption="Example body"
            label={`Example body of ${title}`}
          />
        </Section>
      )}

      <Section title="Response">
        <Tabs.Root defaultValue="success" size="sm" variant="line">
          <Tabs.List>
            <Tabs.Trigger value="success">Success</Tabs.Trigger>
            <Tabs.Trigger value="error">Error</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="success">
            <CodeBlock
              code={json(example.response)}
              caption={`200 OK · ${endpoint.textResponse ? 'text/plain' : 'application/json'}`}
              label={`Success response of ${title}`}
            />
          </Tabs.Content>
          <Tabs.Content value="error">
            <Stack gap="3">
              <CodeBlock
                code={json(example.error.body)}
                caption={`${example.error.status} · application/json`}
                label={`Error response of ${title}`}
              />
              <Stack gap="1" as="ul" listStyleType="none">
                {endpoint.errors.map((error) => (
                  <HStack as="li" key={error.status} gap="2" align="baseline">
                    <Badge colorPalette={error.status.startsWith('5') ? 'red' : 'orange'} variant="subtle">
                      {error.status}
                    </Badge>
                    <Text fontSize="sm" color="fg.muted">
                      {error.description}
                    </Text>
                  </HStack>
                ))}
              </Stack>
            </Stack>
          </Tabs.Content>
        </Tabs.Root>
      </Section>

      <Section title="Examples">
        <Tabs.Root defaultValue="curl" size="sm" variant="enclosed" lazyMount>
          <Tabs.List>
            {EXAMPLE_LANGUAGES.map((language) => (
              <Tabs.Trigger key={language.id} value={language.id}>
                {language.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {EXAMPLE_LANGUAGES.map((language) => (
            <Tabs.Content key={language.id} value={language.id}>
              <CodeBlock
                code={snippets[language.id]}
                caption={language.id === 'lua' ? 'In a server Script (HttpService)' : undefined}
                copyLabel={`Copy ${language.label} example for ${title}${way.title ? ` (${way.title})` : ''}`}
                label={`${language.label} example for ${title}${way.title ? ` (${way.title})` : ''}`}
              />
            </Tabs.Content>
          ))}
        </Tabs.Root>
        {example.note && (
          <HStack gap="2" align="flex-start" color="fg.muted">
            <Box flexShrink={0} pt="0.5">
              <Info size={14} />
            </Box>
            <Text fontSize="sm">{example.note}</Text>
          </HStack>
        )}
      </Section>
    </Stack>
  );
}

/** The contract's descriptions mark code with backticks, as Markdown does: those parts show as code. */
function WithInlineCode({ text }: { text: string }) {
  return text.split('`').map((part, index) =>
    index % 2 === 1 ? (
      <Code key={index} wordBreak="break-all">
        {part}
      </Code>
    ) : (
      part
    ),
  );
}

import { Card, Code, SimpleGrid, Text } from '@chakra-ui/react';

/** How errors, rate limits and authentication work for every endpoint (spec section 2, API Docs footer). */
export function DocsFooter() {
  return (
    <SimpleGrid as="section" aria-label="About the API" columns={{ base: 1, lg: 3 }} gap="4">
      <Card.Root size="sm">
        <Card.Header>
          <Card.Title as="h2">Error handling</Card.Title>
        </Card.Header>
        <Card.Body>
          <Text fontSize="sm" color="fg.muted">
            A failed call answers a 4xx (or 5xx) status with a JSON body <Code size="sm">{'{ "error": "..." }'}</Code>.
            Invalid input answers 400 naming the first problem, with <Code size="sm">issues</Code> listing them all;
            code that does not parse answers <Code size="sm">Lua syntax error: line:column: ...</Code>. Bodies over 1 MB
            answer 413.
          </Text>
        </Card.Body>
      </Card.Root>
      <Card.Root size="sm">
        <Card.Header>
          <Card.Title as="h2">Rate limiting</Card.Title>
        </Card.Header>
        <Card.Body>
          <Text fontSize="sm" color="fg.muted">
            Each session, API key or address has a budget per minute, shown on every endpoint (script execution has its
            own, smaller one; each game server its own for pings). Every answer carries{' '}
            <Code size="sm">RateLimit-Limit</Code>, <Code size="sm">RateLimit-Remaining</Code> and{' '}
            <Code size="sm">RateLimit-Reset</Code>; over budget answers 429 with <Code size="sm">Retry-After</Code> in
            seconds.
          </Text>
        </Card.Body>
      </Card.Root>
      <Card.Root size="sm">
        <Card.Header>
          <Card.Title as="h2">Authentication</Card.Title>
        </Card.Header>
        <Card.Body>
          <Text fontSize="sm" color="fg.muted">
            Send your API key as <Code size="sm">Authorization: Bearer mr_...</Code>. Account endpoints need the session
            token from login instead. The game&apos;s ping, its script fetch (POST /api/scripts/execute with a script
            name) and the loader carry the key as <Code size="sm">key</Code> in the body or query. A missing or wrong
            credential answers 401; regenerating the key stops the old one at once.
          </Text>
        </Card.Body>
      </Card.Root>
    </SimpleGrid>
  );
}

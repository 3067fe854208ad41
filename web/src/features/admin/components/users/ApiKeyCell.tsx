import { Code, HStack, IconButton, Text } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { maskApiKey } from '../../../../lib/format.ts';

/** A user's API key, masked (first 8, an ellipsis, last 4) until this row's Show is pressed. */
export function ApiKeyCell({ apiKey, userName }: { apiKey: string | null; userName: string }) {
  const [revealed, setRevealed] = useState(false);
  if (!apiKey) {
    return (
      <Text fontSize="sm" color="fg.muted">
        No API key
      </Text>
    );
  }
  return (
    <HStack gap="1">
      <Code data-testid="api-key" wordBreak="break-all" variant="surface">
        {revealed ? apiKey : maskApiKey(apiKey)}
      </Code>
      <IconButton
        aria-label={`${revealed ? 'Hide' : 'Show'} API key of ${userName}`}
        aria-pressed={revealed}
        size="xs"
        variant="ghost"
        onClick={() => setRevealed((current) => !current)}
      >
        {revealed ? <EyeOff /> : <Eye />}
      </IconButton>
    </HStack>
  );
}

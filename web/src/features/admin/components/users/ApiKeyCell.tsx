import { Code, IconButton } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { maskApiKey } from '../../../../lib/format.ts';

/**
 * A user's API key, masked (first 8, an ellipsis, last 4) until this row's Show is pressed. Styled
 * by the Users table's classes (`api-key...`), as its rows are.
 */
export function ApiKeyCell({ apiKey, userName }: { apiKey: string | null; userName: string }) {
  const [revealed, setRevealed] = useState(false);
  if (!apiKey) {
    return <span className="api-key-none">No API key</span>;
  }
  return (
    <div className="api-key">
      <Code data-testid="api-key" className="api-key-value" variant="surface">
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
    </div>
  );
}

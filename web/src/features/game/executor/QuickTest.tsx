import { Button, Field, HStack, Stack, Textarea } from '@chakra-ui/react';
import { Play, PlugZap } from 'lucide-react';
import { useState } from 'react';
import type { Can } from '../../../lib/team-access.ts';

/** What Quick Test starts with: a greeting, so a first run shows output at once. */
export const QUICK_TEST_DEFAULT_CODE = 'print("Hello from Moonrelay!")';

/** Prints a message with "connected" in it, which the executor reads as the connection confirmed. */
export const CONNECTION_TEST_SCRIPT = [
  '-- Moonrelay connection test',
  'print("Moonrelay connected to " .. game.Name .. " (place " .. tostring(game.PlaceId) .. ")")',
].join('\n');

interface Props {
  /** A run is in flight (one at a time: the output pane shows one). */
  busy: boolean;
  /** Whether the member's role allows running code in the game, and why not. */
  run: Can;
  /** That run is this code's. */
  executing: boolean;
  onExecute(code: string): void;
}

/** Quick Test: code to run once without saving it, and the connection test script. */
export function QuickTest({ busy, run, executing, onExecute }: Props) {
  const [code, setCode] = useState(QUICK_TEST_DEFAULT_CODE);
  return (
    <Stack gap="3">
      <Field.Root>
        <Field.Label>Quick Test</Field.Label>
        <Textarea
          value={code}
          onChange={(event) => setCode(event.target.value)}
          fontFamily="mono"
          fontSize="sm"
          rows={6}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          placeholder="-- Write your Lua code here..."
        />
      </Field.Root>
      <HStack gap="2" wrap="wrap">
        <Button
          colorPalette="purple"
          size="sm"
          disabled={busy || !code.trim() || !run.allowed}
          title={run.reason}
          loading={executing}
          loadingText="Executing..."
          onClick={() => onExecute(code)}
        >
          <Play size={14} /> Execute Custom Code
        </Button>
        <Button variant="outline" size="sm" onClick={() => setCode(CONNECTION_TEST_SCRIPT)}>
          <PlugZap size={14} /> Load Connection Test Script
        </Button>
      </HStack>
    </Stack>
  );
}

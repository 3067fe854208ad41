import { Button, Card, Field, NativeSelect, Stack, Textarea } from '@chakra-ui/react';
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { BatchUser } from '../../live/admin-live-store.ts';
import { ADMIN_TOASTS } from '../../admin-text.ts';
import { buildCommand, DATA_TEMPLATES, MASS_COMMAND_TYPES, type MassCommandType } from './command-data.ts';
import { useStartBatch } from './useStartBatch.ts';

/**
 * A command for every selected user's game: a type (teleport, heal, speed, reset) and its data as
 * JSON. Send Command is disabled without a type or a selected user (spec section 5).
 */
export function CommandForm({ users }: { users: BatchUser[] }) {
  const [type, setType] = useState<MassCommandType | ''>('');
  const [dataText, setDataText] = useState('');
  const [dataError, setDataError] = useState<string | null>(null);
  const { startBatch, isStarting } = useStartBatch();

  const chooseType = (next: MassCommandType | '') => {
    // The data box follows the type while it holds nothing of the admin's own.
    if (!dataText.trim() || (type && dataText === DATA_TEMPLATES[type])) setDataText(next ? DATA_TEMPLATES[next] : '');
    setType(next);
    setDataError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!type || users.length === 0) return;
    const built = buildCommand(type, dataText);
    if (!built.ok) {
      setDataError(built.error);
      return;
    }
    setDataError(null);
    await startBatch(
      users,
      type,
      { command: built.command },
      {
        sent: ADMIN_TOASTS.commandSent,
        failed: ADMIN_TOASTS.commandFailed,
      },
    );
  };

  return (
    <Card.Root size="sm" role="region" aria-label="Send Command">
      <Card.Header>
        <Card.Title as="h2">Send Command</Card.Title>
        <Card.Description>Queue one command for the game of every selected user.</Card.Description>
      </Card.Header>
      <Card.Body>
        <form onSubmit={(event) => void submit(event)} aria-label="Mass command">
          <Stack gap="3">
            <Field.Root>
              <Field.Label>Command type</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field
                  aria-label="Command type"
                  value={type}
                  onChange={(event) => chooseType(event.target.value as MassCommandType | '')}
                >
                  <option value="">Select a command</option>
                  {MASS_COMMAND_TYPES.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root invalid={dataError !== null}>
              <Field.Label>Data (JSON)</Field.Label>
              <Textarea
                aria-label="Command data (JSON)"
                fontFamily="mono"
                size="sm"
                rows={3}
                placeholder='{"x": 0, "y": 50, "z": 0}'
                value={dataText}
                onChange={(event) => {
                  setDataText(event.target.value);
                  setDataError(null);
                }}
              />
              {dataError ? (
                <Field.ErrorText data-testid="command-data-error">{dataError}</Field.ErrorText>
              ) : (
                <Field.HelperText>Optional for heal and reset.</Field.HelperText>
              )}
            </Field.Root>
            <Button
              type="submit"
              colorPalette="purple"
              alignSelf="flex-start"
              disabled={!type || users.length === 0}
              loading={isStarting}
            >
              <Send /> Send Command
            </Button>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

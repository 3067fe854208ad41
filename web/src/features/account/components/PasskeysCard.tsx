import { Box, Button, Card, Field, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Passkey } from '@moonrelay/contract/two-factor';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys.ts';
import { proofOf } from '../proof.ts';

type Stage = { step: 'idle' } | { step: 'add' } | { step: 'remove'; passkey: Passkey };

/** One passkey: its name, when it was added and when it last signed in, and its Remove button. */
function PasskeyRow({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  const lastUsed = passkey.lastUsedAt
    ? TWO_FACTOR.passkeyLastUsed(formatDate(passkey.lastUsedAt))
    : TWO_FACTOR.passkeyNeverUsed;
  return (
    <HStack as="li" justify="space-between" gap="3" py="2" borderBottomWidth="1px" wrap="wrap">
      <HStack gap="3" minW="0">
        <KeyRound size={18} aria-hidden />
        <Box minW="0">
          <Text fontWeight="medium" truncate>
            {passkey.name}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {TWO_FACTOR.passkeyCreated(formatDate(passkey.createdAt))} · {lastUsed}
          </Text>
        </Box>
      </HStack>
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        onClick={onRemove}
        aria-label={`${TWO_FACTOR.removePasskey} ${passkey.name}`}
      >
        {TWO_FACTOR.removePasskey}
      </Button>
    </HStack>
  );
}

/**
 * Settings' passkeys: each one can stand in for the code after the password. Adding one asks for a
 * name and the current password (or a code), then the browser's own passkey prompt; removing one
 * asks for the password or a code again.
 */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [name, setName] = useState('');
  const [proof, setProof] = useState('');
  const [error, setError] = useState<{ field: 'name' | 'proof'; message: string } | null>(null);

  const go = (next: Stage) => {
    setStage(next);
    setName('');
    setProof('');
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stage.step === 'add') {
      if (!name.trim()) return setError({ field: 'name', message: TWO_FACTOR.passkeyNameRequired });
      if (!proof) return setError({ field: 'proof', message: TWO_FACTOR.wrongCurrentProof });
      add.mutate(
        { name: name.trim(), proof: proofOf(proof) },
        {
          onSuccess: ({ passkey }) => {
            go({ step: 'idle' });
            notify({ title: TWO_FACTOR.passkeyAdded, description: passkey.name });
          },
          onError: (failure) =>
            setError({ field: 'proof', message: messageOf(failure, TWO_FACTOR.passkeyNotVerified) }),
        },
      );
    } else if (stage.step === 'remove') {
      if (!proof) return setError({ field: 'proof', message: TWO_FACTOR.wrongCurrentProof });
      remove.mutate(
        { id: stage.passkey.id, proof: proofOf(proof) },
        {
          onSuccess: () => {
            go({ step: 'idle' });
            notify({ title: TWO_FACTOR.passkeyRemoved, description: stage.passkey.name });
          },
          onError: (failure) => setError({ field: 'proof', message: messageOf(failure, TWO_FACTOR.wrongProof) }),
        },
      );
    }
  };

  const proofField = (
    <Field.Root invalid={error?.field === 'proof'}>
      <Field.Label>{TWO_FACTOR.passkeyProof}</Field.Label>
      <Input
        type="password"
        value={proof}
        onChange={(event) => {
          setProof(event.target.value);
          setError(null);
        }}
        autoComplete="current-password"
        autoFocus={stage.step === 'remove'}
        spellCheck={false}
      />
      {error?.field === 'proof' && <Field.ErrorText>{error.message}</Field.ErrorText>}
    </Field.Root>
  );

  let body;
  if (passkeys.isPending) {
    body = <Spinner size="sm" />;
  } else if (passkeys.isError) {
    body = <Text color="fg.error">{messageOf(passkeys.error, 'Your passkeys could not be loaded.')}</Text>;
  } else if (stage.step === 'add' || stage.step === 'remove') {
    const adding = stage.step === 'add';
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="3">
          {adding ? (
            <Field.Root invalid={error?.field === 'name'}>
              <Field.Label>{TWO_FACTOR.passkeyName}</Field.Label>
              <Input
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(null);
                }}
                placeholder={TWO_FACTOR.passkeyNamePlaceholder}
                autoFocus
              />
              {error?.field === 'name' && <Field.ErrorText>{error.message}</Field.ErrorText>}
            </Field.Root>
          ) : (
            <Text fontWeight="medium">{TWO_FACTOR.removePasskeyTitle(stage.passkey.name)}</Text>
          )}
          {proofField}
          <HStack>
            <Button type="submit" colorPalette={adding ? 'purple' : 'red'} loading={add.isPending || remove.isPending}>
              {adding ? TWO_FACTOR.passkeyCreate : TWO_FACTOR.removePasskey}
            </Button>
            <Button variant="ghost" onClick={() => go({ step: 'idle' })}>
              {TWO_FACTOR.cancel}
            </Button>
          </HStack>
        </Stack>
      </form>
    );
  } else {
    const list = passkeys.data.passkeys;
    body = (
      <Stack gap="3" align="stretch">
        {list.length === 0 ? (
          <Text color="fg.muted">{TWO_FACTOR.passkeysNone}</Text>
        ) : (
          <Stack
            as="ul"
            gap="0"
            listStyleType="none"
            ps="0"
            aria-label={TWO_FACTOR.passkeysTitle}
            data-testid="passkey-list"
          >
            {list.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} onRemove={() => go({ step: 'remove', passkey })} />
            ))}
          </Stack>
        )}
        <Box>
          <Button variant="outline" onClick={() => go({ step: 'add' })}>
            <KeyRound /> {TWO_FACTOR.addPasskey}
          </Button>
        </Box>
      </Stack>
    );
  }

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title>{TWO_FACTOR.passkeysTitle}</Card.Title>
        <Card.Description>{TWO_FACTOR.passkeysIntro}</Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}

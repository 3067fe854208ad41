import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { useLoginWithCode } from '../api/login.ts';

/**
 * The sign-in step after a right password on an account with two-factor sign-in: a code from the
 * authenticator app or a recovery code. A wrong code says so under the field; the login lockout
 * counts it.
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: string;
  onSignedIn: (result: AuthResponse) => void;
  onBack: () => void;
}) {
  const verify = useLoginWithCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(TWO_FACTOR.codeRequired);
      return;
    }
    verify.mutate(
      { challenge, code: code.trim() },
      { onSuccess: onSignedIn, onError: (failure) => setError(messageOf(failure, TWO_FACTOR.wrongCode)) },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={TWO_FACTOR.stepTitle}>
      <Stack gap="4">
        <Text fontWeight="semibold">{TWO_FACTOR.stepTitle}</Text>
        <Text color="fg.muted">{TWO_FACTOR.stepIntro}</Text>
        <Field.Root invalid={error !== null}>
          <Field.Label>{TWO_FACTOR.stepCode}</Field.Label>
          <Input
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              setError(null);
            }}
            autoComplete="one-time-code"
            autoFocus
            spellCheck={false}
            maxLength={32}
          />
          {error && <Field.ErrorText>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" colorPalette="purple" loading={verify.isPending}>
          {TWO_FACTOR.stepSubmit}
        </Button>
        <Button variant="ghost" onClick={onBack}>
          {TWO_FACTOR.stepBack}
        </Button>
      </Stack>
    </form>
  );
}

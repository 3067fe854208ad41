import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import type { TwoFactorChallenge } from '@moonrelay/contract/two-factor';
import { useLoginWithCode, useLoginWithPasskey } from '../api/login.ts';

/**
 * The sign-in step after a right password on an account with two-factor sign-in: a passkey (when the
 * account has one), or a code from the authenticator app or a recovery code. A refusal says so under
 * its control; the login lockout counts it.
 */
export function TwoFactorStep({
  challenge,
  methods,
  onSignedIn,
  onBack,
}: {
  challenge: string;
  methods: TwoFactorChallenge['methods'];
  onSignedIn: (result: AuthResponse) => void;
  onBack: () => void;
}) {
  const verify = useLoginWithCode();
  const passkey = useLoginWithPasskey();
  const hasPasskey = methods.includes('passkey');
  const hasCode = methods.includes('totp');
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

  const signInWithPasskey = () => passkey.mutate(challenge, { onSuccess: onSignedIn });

  const passkeyButton = hasPasskey && (
    <Stack gap="2">
      <Button
        colorPalette="purple"
        variant={hasCode ? 'outline' : 'solid'}
        onClick={signInWithPasskey}
        loading={passkey.isPending}
      >
        <KeyRound /> {TWO_FACTOR.stepUsePasskey}
      </Button>
      {passkey.isError && (
        <Text color="fg.error" fontSize="sm" role="alert">
          {messageOf(passkey.error, TWO_FACTOR.passkeyNotVerified)}
        </Text>
      )}
    </Stack>
  );

  if (!hasCode) {
    return (
      <Stack gap="4" role="group" aria-label={TWO_FACTOR.stepTitle}>
        <Text fontWeight="semibold">{TWO_FACTOR.stepTitle}</Text>
        <Text color="fg.muted">{TWO_FACTOR.stepIntroPasskey}</Text>
        {passkeyButton}
        <Button variant="ghost" onClick={onBack}>
          {TWO_FACTOR.stepBack}
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={TWO_FACTOR.stepTitle}>
      <Stack gap="4">
        <Text fontWeight="semibold">{TWO_FACTOR.stepTitle}</Text>
        <Text color="fg.muted">{TWO_FACTOR.stepIntro}</Text>
        {passkeyButton}
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

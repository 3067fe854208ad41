import { Alert, Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { AuthResponse, LoginRequest } from '@moonrelay/contract/auth';
import { login as loginChecks } from '../forms/sign-in-resolvers.ts';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useLogin } from '../api/login.ts';
import { TextField } from './TextField.tsx';
import { PasskeySignInButton } from './PasskeySignInButton.tsx';
import { TwoFactorStep } from './TwoFactorStep.tsx';
import type { TwoFactorChallenge } from '@moonrelay/contract/two-factor';

export function LoginForm({ onSignedIn }: { onSignedIn: (result: AuthResponse) => void }) {
  const login = useLogin();
  // Set when the password was right and the account asks for a code next.
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // A lockout's message (it says when it ends) stays by the form, where the next try would be.
  const [lockout, setLockout] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginRequest>({
    resolver: loginChecks.resolver,
    defaultValues: { emailOrUsername: '', password: '' },
  });
  const submit = handleSubmit((values) => {
    setLockout(null);
    login.mutate(values, {
      onSuccess: (result) => ('twoFactorRequired' in result ? setChallenge(result) : onSignedIn(result)),
      onError: (error) => {
        const description = messageOf(error, 'Invalid credentials. Please try again.');
        if (error instanceof ApiError && error.status === 429) setLockout(description);
        notify({ type: 'error', title: 'Login Failed', description });
      },
    });
  });
  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge.challenge}
        methods={challenge.methods}
        onSignedIn={onSignedIn}
        onBack={() => setChallenge(null)}
      />
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        {lockout && (
          <Alert.Root status="warning" role="alert" data-testid="login-locked">
            <Alert.Indicator />
            <Alert.Title>{lockout}</Alert.Title>
          </Alert.Root>
        )}
        <TextField
          label="Email or username"
          autoComplete="username"
          registration={register('emailOrUsername')}
          error={formState.errors.emailOrUsername}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={register('password')}
          error={formState.errors.password}
        />
        <Button type="submit" colorPalette="purple" disabled={login.isPending}>
          {login.isPending ? 'Logging in...' : 'Login'}
        </Button>
        <PasskeySignInButton onSignedIn={onSignedIn} />
      </Stack>
    </form>
  );
}

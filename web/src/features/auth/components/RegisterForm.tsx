import { Button, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { AuthResponse, RegisterForm as RegisterValues } from '@moonrelay/contract/auth';
import { registration as registrationChecks } from '../forms/sign-in-resolvers.ts';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useRegister } from '../api/register.ts';
import { TextField } from './TextField.tsx';

export function RegisterForm({ onSignedIn }: { onSignedIn: (result: AuthResponse) => void }) {
  const registration = useRegister();
  const { register, handleSubmit, formState } = useForm<RegisterValues>({
    resolver: registrationChecks.resolver,
    defaultValues: { email: '', username: '', name: '', password: '', confirmPassword: '' },
  });
  const submit = handleSubmit((values) =>
    registration.mutate(values, {
      onSuccess: (result) => onSignedIn(result),
      onError: (error) =>
        notify({
          type: 'error',
          title: 'Registration Failed',
          description: messageOf(error, 'Failed to create account. Please try again.'),
        }),
    }),
  );
  const { errors } = formState;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email}
        />
        <TextField
          label="Username"
          autoComplete="username"
          registration={register('username')}
          error={errors.username}
        />
        <TextField label="Name" autoComplete="name" registration={register('name')} error={errors.name} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword}
        />
        <Button type="submit" colorPalette="purple" disabled={registration.isPending}>
          {registration.isPending ? 'Creating account...' : 'Create account'}
        </Button>
      </Stack>
    </form>
  );
}

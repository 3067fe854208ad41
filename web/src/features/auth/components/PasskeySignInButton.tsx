import { Button } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useSignInWithPasskey } from '../api/login.ts';

/**
 * "Sign in with a passkey", under the password form: a passkey that verifies its user (PIN or
 * biometric) signs in alone. Shown only where the browser has WebAuthn at all.
 */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (result: AuthResponse) => void }) {
  const signIn = useSignInWithPasskey();
  if (typeof window === 'undefined' || typeof window.PublicKeyCredential !== 'function') return null;
  return (
    <Button
      variant="outline"
      loading={signIn.isPending}
      onClick={() =>
        signIn.mutate(undefined, {
          onSuccess: onSignedIn,
          onError: (error) =>
            notify({
              type: 'error',
              title: 'Login Failed',
              description: messageOf(error, TWO_FACTOR.passkeyNotVerified),
            }),
        })
      }
    >
      <KeyRound /> {TWO_FACTOR.signInWithPasskey}
    </Button>
  );
}

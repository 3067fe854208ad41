import { useMutation } from '@tanstack/react-query';
import type { AuthResponse, LoginRequest } from '@moonrelay/contract/auth';
import type { LoginResponse, PasskeyOptions, TwoFactorLoginRequest } from '@moonrelay/contract/two-factor';
import { apiRequest } from '../../../lib/api-client.ts';
import { signWithPasskey } from '../../../lib/webauthn.ts';

/** A session, or a challenge when the account asks for a code after the password. */
export const login = (input: LoginRequest) => apiRequest<LoginResponse>('POST', '/api/auth/login', input);

export const useLogin = () => useMutation({ mutationFn: login });

/** The code step: the challenge login answered and a code from the app, or a recovery code. */
export const useLoginWithCode = () =>
  useMutation({
    mutationFn: (input: TwoFactorLoginRequest) => apiRequest<AuthResponse>('POST', '/api/auth/login/two-factor', input),
  });

/** The passkey step: options for the challenge, the browser's passkey prompt, then the session. */
export const useLoginWithPasskey = () =>
  useMutation({
    mutationFn: async (challenge: string) => {
      const { options } = await apiRequest<PasskeyOptions>('POST', '/api/auth/login/passkey/options', { challenge });
      const credential = await signWithPasskey(options);
      return apiRequest<AuthResponse>('POST', '/api/auth/login/passkey', { challenge, credential });
    },
  });

/** "Sign in with a passkey": options for no account in particular, the browser's prompt, then the session. */
export const useSignInWithPasskey = () =>
  useMutation({
    mutationFn: async () => {
      const { options } = await apiRequest<PasskeyOptions>('POST', '/api/auth/passkey/options');
      const credential = await signWithPasskey(options);
      return apiRequest<AuthResponse>('POST', '/api/auth/passkey', { credential });
    },
  });

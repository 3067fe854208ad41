import { useMutation } from '@tanstack/react-query';
import type { SudoStatus } from '@moonrelay/contract/sessions';
import type { CurrentProof, PasskeyOptions } from '@moonrelay/contract/two-factor';
import { apiRequest } from '../../../lib/api-client.ts';
import { signWithPasskey } from '../../../lib/webauthn.ts';

/** Proves it is you with the password, an authenticator code or a recovery code: 10 minutes of sudo. */
export const useSudoWithProof = () =>
  useMutation({
    mutationFn: (proof: CurrentProof) => apiRequest<SudoStatus>('POST', '/api/auth/sudo', proof),
  });

/** The same with a passkey: options for this account, the browser's passkey prompt, then its answer. */
export const useSudoWithPasskey = () =>
  useMutation({
    mutationFn: async () => {
      const { options } = await apiRequest<PasskeyOptions>('POST', '/api/auth/sudo/passkey/options');
      const credential = await signWithPasskey(options);
      return apiRequest<SudoStatus>('POST', '/api/auth/sudo/passkey', { credential });
    },
  });

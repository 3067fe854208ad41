import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  CurrentProof,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegistered,
  TwoFactorStatus,
} from '@moonrelay/contract/two-factor';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { createPasskey } from '../../../lib/webauthn.ts';
import { twoFactorStatusQuery } from './two-factor.ts';

export const passkeysQuery = () =>
  queryOptions({
    queryKey: ['/api/user/two-factor/passkeys'],
    queryFn: () => apiRequest<PasskeyList>('GET', '/api/user/two-factor/passkeys'),
  });

export function usePasskeys() {
  const token = useSession((state) => state.token);
  return useQuery({ ...passkeysQuery(), enabled: Boolean(token) });
}

const changed = (status: TwoFactorStatus) => {
  queryClient.setQueryData(twoFactorStatusQuery().queryKey, status);
  void queryClient.invalidateQueries({ queryKey: passkeysQuery().queryKey });
};

/**
 * Adds a passkey: the proof gets the options, the browser makes the credential (its own prompt),
 * and the server keeps it under the name.
 */
export const useAddPasskey = () =>
  useMutation({
    mutationFn: async ({ proof, name }: { proof: CurrentProof; name: string }) => {
      const { options } = await apiRequest<PasskeyOptions>('POST', '/api/user/two-factor/passkeys/options', proof);
      const credential = await createPasskey(options);
      return apiRequest<PasskeyRegistered>('POST', '/api/user/two-factor/passkeys', { name, credential });
    },
    onSuccess: ({ status }) => changed(status),
  });

export const useRemovePasskey = () =>
  useMutation({
    mutationFn: ({ id, proof }: { id: string; proof: CurrentProof }) =>
      apiRequest<TwoFactorStatus>('POST', `/api/user/two-factor/passkeys/${encodeURIComponent(id)}/remove`, proof),
    onSuccess: changed,
  });

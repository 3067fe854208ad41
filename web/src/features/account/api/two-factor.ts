import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { RecoveryCodes, TotpDisableRequest, TotpSetup, TwoFactorStatus } from '@moonrelay/contract/two-factor';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

/** Whether sign-in asks for a code, recovery codes left, and whether this server requires it of admins. */
export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: ['/api/user/two-factor'],
    queryFn: () => apiRequest<TwoFactorStatus>('GET', '/api/user/two-factor'),
  });

export function useTwoFactorStatus() {
  const token = useSession((state) => state.token);
  return useQuery({ ...twoFactorStatusQuery(), enabled: Boolean(token) });
}

const statusChanged = (status: TwoFactorStatus) => queryClient.setQueryData(twoFactorStatusQuery().queryKey, status);

/** Starts setup with the current password: the secret and its QR code, not yet asked for at sign-in. */
export const useStartTotp = () =>
  useMutation({
    mutationFn: (password: string) => apiRequest<TotpSetup>('POST', '/api/user/two-factor/totp/setup', { password }),
  });

/** Turns it on with a code from the app; answers the recovery codes, shown once. */
export const useConfirmTotp = () =>
  useMutation({
    mutationFn: (code: string) => apiRequest<RecoveryCodes>('POST', '/api/user/two-factor/totp/confirm', { code }),
    onSuccess: ({ status }) => statusChanged(status),
  });

export const useDisableTotp = () =>
  useMutation({
    mutationFn: (proof: TotpDisableRequest) =>
      apiRequest<TwoFactorStatus>('POST', '/api/user/two-factor/totp/disable', proof),
    onSuccess: statusChanged,
  });

import { useMutation } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import { apiRequest } from '../../../lib/api-client.ts';

/** Removes a user's authenticator app, recovery codes and passkeys: the recovery path of last resort. */
export const useResetTwoFactor = () =>
  useMutation({
    mutationFn: (userId: string) =>
      apiRequest<SuccessResponse>('POST', `/api/admin/users/${encodeURIComponent(userId)}/two-factor/reset`),
  });

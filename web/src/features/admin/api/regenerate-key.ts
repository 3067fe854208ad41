import { useMutation } from '@tanstack/react-query';
import type { AdminRegenerateKeyResponseSchema } from '@moonrelay/contract/admin';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { adminUsersKey } from './users.ts';

type AdminRegenerateKeyResponse = z.infer<typeof AdminRegenerateKeyResponseSchema>;

/** Issues a new API key for a user (their old one stops working at once); the users list shows it. */
export const useRegenerateUserKey = () =>
  useMutation({
    mutationFn: (userId: string) =>
      apiRequest<AdminRegenerateKeyResponse>('POST', `/api/admin/users/${encodeURIComponent(userId)}/regenerate-key`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });

import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

/** Deletes the account; on success local data and cache are cleared and the app returns to /. */
export function useDeleteAccount() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiRequest<{ success: true }>('DELETE', '/api/user/account'),
    onSuccess: () => {
      useSession.getState().signOut();
      queryClient.clear();
      navigate('/');
    },
  });
}

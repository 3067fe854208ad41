import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

/**
 * Logout (spec section 4): the server revokes the token; token, user and cached data are removed
 * and the app goes to / even if that call fails (the token is forgotten either way).
 */
export function useLogout() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiRequest<{ success: true }>('POST', '/api/auth/logout'),
    onSettled: () => {
      useSession.getState().signOut();
      queryClient.clear();
      navigate('/');
    },
  });
}

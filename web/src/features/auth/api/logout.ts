import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { apiRequest, dropSignedInRequests, signedOut } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { closeLiveSocket } from '../../../lib/socket.ts';

/**
 * Logout (spec section 4): the server revokes the token; token, user and cached data are removed
 * and the app goes to / even if that call fails (the token is forgotten either way). The screens'
 * requests still out are dropped first: answered after the revocation they would each be a 401.
 * The live socket closes first too: the revocation ends it on the server, and a poll of its
 * transport still out at that moment would be answered 400 (an unknown session id).
 */
export function useLogout() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      await queryClient.cancelQueries();
      dropSignedInRequests();
      closeLiveSocket();
      return apiRequest<{ success: true }>('POST', '/api/auth/logout', undefined, { logout: true });
    },
    onSettled: () => {
      useSession.getState().signOut();
      queryClient.clear();
      signedOut();
      navigate('/');
    },
  });
}

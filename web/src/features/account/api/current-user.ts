import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['/api/user'],
    queryFn: async () => {
      const user = await apiRequest<User>('GET', '/api/user');
      // Keep the stored copy fresh: it is what the screens fall back to before this answers.
      useSession.getState().setUser(user);
      return user;
    },
  });

/** The signed-in user; fetched only while a token is stored (spec section 4). */
export function useCurrentUser() {
  const token = useSession((state) => state.token);
  return useQuery({ ...currentUserQuery(), enabled: Boolean(token) });
}

import { Center, Spinner } from '@chakra-ui/react';
import { useCurrentUser } from '../../features/account/api/current-user.ts';
import { AdminPanel } from '../../features/admin/components/AdminPanel.tsx';
import { AdminsOnly } from '../../features/admin/components/AdminsOnly.tsx';
import { useSession } from '../../lib/session.ts';

/**
 * /admin: the Admin Panel for admins, a plain "admins only" page for everyone else. The fetched user
 * decides once it is in (the stored copy may predate a promotion or a demotion); the server refuses
 * every admin call of a non-admin anyway (403).
 */
export default function AdminPage() {
  const current = useCurrentUser();
  const storedUser = useSession((state) => state.user);
  const user = current.data ?? storedUser;
  if (!user) {
    return (
      <Center py="20">
        <Spinner />
      </Center>
    );
  }
  return user.isAdmin ? <AdminPanel currentUserId={user.id} /> : <AdminsOnly />;
}

import { Alert, Button, Center, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../features/account/api/current-user.ts';
import { ApiKeyCard } from '../../features/account/components/ApiKeyCard.tsx';
import { ApiKeysCard } from '../../features/account/components/ApiKeysCard.tsx';
import { NotificationsCard } from '../../features/account/components/NotificationsCard.tsx';
import { OpenCloudCard } from '../../features/account/components/OpenCloudCard.tsx';
import { DangerZoneCard } from '../../features/account/components/DangerZoneCard.tsx';
import { GoogleAccountCard } from '../../features/account/components/GoogleAccountCard.tsx';
import { PreferencesCard } from '../../features/account/components/PreferencesCard.tsx';
import { ProfileCard } from '../../features/account/components/ProfileCard.tsx';
import { PasskeysCard } from '../../features/account/components/PasskeysCard.tsx';
import { PasswordCard } from '../../features/account/components/PasswordCard.tsx';
import { SessionsCard } from '../../features/account/components/SessionsCard.tsx';
import { TwoFactorCard } from '../../features/account/components/TwoFactorCard.tsx';
import { SharedLinksCard } from '../../features/scripts/sharing/SharedLinksCard.tsx';
import { messageOf } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { PageHeading } from '../../components/PageHeading.tsx';

/**
 * Settings (spec section 2): profile, password, two-factor sign-in, passkeys, signed-in sessions, API
 * key, scoped API keys, notifications, the Roblox Open Cloud key, the scripts' share links,
 * preferences and account deletion.
 */
export default function SettingsPage() {
  const current = useCurrentUser();
  const storedUser = useSession((state) => state.user);
  // The stored copy shows at once; the fetched one replaces it when it arrives.
  const user = current.data ?? storedUser;

  return (
    <Stack gap="6" maxW="3xl">
      <Stack gap="2">
        <HStack>
          <Button asChild variant="ghost" size="sm" ms="-3">
            <Link to="/dashboard">
              <ArrowLeft /> Back to Dashboard
            </Link>
          </Button>
        </HStack>
        <PageHeading>Settings</PageHeading>
        <Text color="fg.muted">Manage your account, API key and preferences.</Text>
      </Stack>
      {user ? (
        <>
          <ProfileCard user={user} />
          <PasswordCard />
          <TwoFactorCard />
          <PasskeysCard />
          <SessionsCard />
          <GoogleAccountCard />
          <ApiKeyCard apiKey={user.apiKey} />
          <ApiKeysCard />
          <NotificationsCard />
          <OpenCloudCard />
          <SharedLinksCard />
        </>
      ) : current.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Your account could not be loaded.</Alert.Title>
            <Alert.Description>{messageOf(current.error, 'Please try again.')}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => void current.refetch()}>
            Retry
          </Button>
        </Alert.Root>
      ) : (
        <Center py="10">
          <Spinner />
        </Center>
      )}
      <PreferencesCard />
      <DangerZoneCard />
    </Stack>
  );
}

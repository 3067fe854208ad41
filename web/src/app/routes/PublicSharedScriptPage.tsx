import { Box, Stack, Text } from '@chakra-ui/react';
import { useLocation, useMatch } from 'react-router-dom';
import { APP_NAME } from '@moonrelay/contract/constants';
import { SignInScreen } from '../../features/auth/components/SignInScreen.tsx';
import { SharedScriptScreen } from '../../features/scripts/sharing/SharedScriptScreen.tsx';
import { SignInToCopy, wantsSignIn } from '../../features/scripts/sharing/SignInToCopy.tsx';
import { SHARED_SCRIPT_PATH } from '../../features/scripts/sharing/shared-link.ts';

/**
 * A shared script's link opened signed out: the script on a page of its own (no sidebar: there is
 * no account to show), and "Sign in to copy", which shows the sign-in screen at the same address.
 * Signed in, the app's own route shows the script with the copy. Its own chunk, apart from the
 * signed-in one, and without zod, like the sign-in screen (docs/decisions/041).
 */
export default function PublicSharedScriptPage() {
  const location = useLocation();
  const token = useMatch(SHARED_SCRIPT_PATH)?.params.token ?? '';
  if (wantsSignIn(location.state)) return <SignInScreen />;
  return (
    <Box as="main" minH="100vh" bg="bg.subtle" px={{ base: '4', md: '8' }} py="6">
      <Stack gap="6" maxW="5xl" mx="auto">
        <Text fontWeight="semibold" fontSize="lg">
          {APP_NAME}
        </Text>
        <SharedScriptScreen token={token} action={<SignInToCopy />} />
      </Stack>
    </Box>
  );
}

import { Button, Stack, Text } from '@chakra-ui/react';
import { LogIn } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { SHARE_TEXT } from './share-text.ts';

/**
 * The history state of a shared script's page asking for the sign-in screen. State, not the
 * address: the address stays the link itself (copied from the bar, it shows the script), the
 * browser's Back returns to the script, and once signed in the sign-in screen brings the visitor
 * back to the same address, where the page offers the copy.
 */
const SIGN_IN_STATE = { signIn: true } as const;

export const wantsSignIn = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { signIn?: unknown }).signIn === true;

/** A signed-out visitor's way to copy a shared script: sign in (or register) first. */
export function SignInToCopy() {
  const { pathname } = useLocation();
  return (
    <Stack gap="2" align="flex-start">
      <Button asChild colorPalette="purple">
        {/* A new entry (a link to the page on show replaces it by default), so Back is the script. */}
        <Link to={pathname} state={SIGN_IN_STATE} replace={false}>
          <LogIn /> {SHARE_TEXT.signInToCopy}
        </Link>
      </Button>
      <Text fontSize="sm" color="fg.muted">
        {SHARE_TEXT.signInToCopyNote}
      </Text>
    </Stack>
  );
}

import {
  Alert,
  Button,
  chakra,
  CloseButton,
  Dialog,
  Field,
  HStack,
  Input,
  Portal,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import { KeyRound, LogOut } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { SudoMethod } from '@moonrelay/contract/sessions';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { sudoCancelled, sudoProved, useSudoPrompt } from '../../../lib/sudo.ts';
import { useSudoWithPasskey, useSudoWithProof } from '../api/sudo.ts';
import { SUDO_TEXT } from '../security-text.ts';

type Failure = { on: 'password' | 'code' | 'passkey'; message: string } | null;

/** The error of a refused proof: the server's words, or what a passkey prompt said. */
const failureText = (error: unknown, fallback: string) =>
  error instanceof ApiError ? messageOf(error, fallback) : error instanceof Error ? error.message : fallback;

/**
 * The ways this account has (the 403's `methods`): the password and a code as fields of one form
 * (Enter confirms), a passkey by its button; an account with none of them only by signing in again.
 */
function SudoProofs({ methods, onSignInAgain }: { methods: SudoMethod[]; onSignInAgain: () => void }) {
  const withProof = useSudoWithProof();
  const withPasskey = useSudoWithPasskey();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<Failure>(null);
  const hasPassword = methods.includes('password');
  const hasCode = methods.includes('code');
  const hasPasskey = methods.includes('passkey');
  const signInOnly = !hasPassword && !hasCode && !hasPasskey;
  const busy = withProof.isPending || withPasskey.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const typedCode = code.trim();
    if (!password && !typedCode) {
      const message =
        hasPassword && hasCode
          ? SUDO_TEXT.proofRequired
          : hasPassword
            ? SUDO_TEXT.passwordRequired
            : SUDO_TEXT.codeRequired;
      setFailure({ on: hasPassword ? 'password' : 'code', message });
      return;
    }
    const on = password ? 'password' : 'code';
    withProof.mutate(
      { ...(password ? { password } : {}), ...(typedCode ? { code: typedCode } : {}) },
      {
        onSuccess: sudoProved,
        onError: (error) => setFailure({ on, message: failureText(error, SUDO_TEXT.wrong) }),
      },
    );
  };

  const proveWithPasskey = () =>
    withPasskey.mutate(undefined, {
      onSuccess: sudoProved,
      onError: (error) => setFailure({ on: 'passkey', message: failureText(error, SUDO_TEXT.passkeyFailed) }),
    });

  const field = (on: 'password' | 'code') => (
    <Field.Root invalid={failure?.on === on}>
      <Field.Label>{on === 'password' ? SUDO_TEXT.password : SUDO_TEXT.code}</Field.Label>
      <Input
        type={on === 'password' ? 'password' : 'text'}
        value={on === 'password' ? password : code}
        onChange={(event) => {
          (on === 'password' ? setPassword : setCode)(event.target.value);
          setFailure(null);
        }}
        autoComplete={on === 'password' ? 'current-password' : 'one-time-code'}
        spellCheck={false}
        maxLength={on === 'password' ? 256 : 32}
        data-autofocus={on === 'password' || !hasPassword || undefined}
      />
      {failure?.on === on && <Field.ErrorText>{failure.message}</Field.ErrorText>}
    </Field.Root>
  );

  let body;
  if (signInOnly) {
    body = <Text>{SUDO_TEXT.signInIntro}</Text>;
  } else {
    body = (
      <Stack gap="4">
        <Text color="fg.muted">{SUDO_TEXT.intro}</Text>
        {(hasPassword || hasCode) && (
          <Stack gap="3">
            {hasPassword && field('password')}
            {hasPassword && hasCode && <OrSeparator />}
            {hasCode && field('code')}
          </Stack>
        )}
        {hasPasskey && (
          <Stack gap="2">
            {(hasPassword || hasCode) && <OrSeparator />}
            <Button
              variant="outline"
              onClick={proveWithPasskey}
              loading={withPasskey.isPending}
              disabled={withProof.isPending}
              data-autofocus={(!hasPassword && !hasCode) || undefined}
            >
              <KeyRound /> {SUDO_TEXT.usePasskey}
            </Button>
            {failure?.on === 'passkey' && (
              <Alert.Root status="error" size="sm">
                <Alert.Indicator />
                <Alert.Description role="alert">{failure.message}</Alert.Description>
              </Alert.Root>
            )}
          </Stack>
        )}
      </Stack>
    );
  }

  // One form around the fields and the footer's Confirm: Enter in either field confirms.
  return (
    <chakra.form display="contents" onSubmit={submit} noValidate>
      <Dialog.Body>{body}</Dialog.Body>
      <Dialog.Footer flexWrap="wrap">
        {/* Never disabled: a passkey prompt left open, or a slow answer, must not hold the change hostage. */}
        <Button variant="outline" onClick={sudoCancelled}>
          {SUDO_TEXT.cancel}
        </Button>
        {signInOnly ? (
          <Button
            colorPalette="purple"
            data-autofocus
            onClick={() => {
              sudoCancelled();
              onSignInAgain();
            }}
          >
            <LogOut /> {SUDO_TEXT.signInAgain}
          </Button>
        ) : (
          (hasPassword || hasCode) && (
            <Button
              type="submit"
              colorPalette="purple"
              loading={withProof.isPending}
              loadingText={SUDO_TEXT.confirming}
              disabled={withPasskey.isPending}
            >
              {SUDO_TEXT.confirm}
            </Button>
          )
        )}
      </Dialog.Footer>
    </chakra.form>
  );
}

function OrSeparator() {
  return (
    <HStack gap="3" aria-hidden>
      <Separator flex="1" />
      <Text fontSize="sm" color="fg.muted">
        {SUDO_TEXT.or}
      </Text>
      <Separator flex="1" />
    </HStack>
  );
}

/**
 * The one "Confirm it is you" dialog of the signed-in app: open while any call waits on a
 * `sudo_required` answer (lib/sudo.ts). A proof sends every waiting call again; Cancel, Escape or
 * the close button fail them all. `onSignInAgain` signs out, for an account whose only proof is a
 * fresh sign-in.
 */
export function SudoDialog({ onSignInAgain }: { onSignInAgain: () => void }) {
  const prompt = useSudoPrompt((state) => state.prompt);
  // Kept while the dialog animates out, so its content does not blank first.
  const shown = useRef(prompt);
  if (prompt) shown.current = prompt;
  const contentRef = useRef<HTMLDivElement>(null);
  const methods = shown.current?.methods ?? [];

  return (
    <Dialog.Root
      open={prompt !== null}
      onOpenChange={(event) => {
        if (!event.open) sudoCancelled();
      }}
      closeOnInteractOutside={false}
      initialFocusEl={() => contentRef.current?.querySelector<HTMLElement>('[data-autofocus]') ?? null}
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content ref={contentRef} mx="4">
            <Dialog.Header>
              <Dialog.Title>{SUDO_TEXT.title}</Dialog.Title>
            </Dialog.Header>
            {/* A new prompt starts empty: the fields of the last one go with it. */}
            <SudoProofs key={shown.current?.serial} methods={methods} onSignInAgain={onSignInAgain} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

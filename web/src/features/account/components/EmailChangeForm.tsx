import { Button, Field, HStack, Input, Stack } from '@chakra-ui/react';
import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SESSIONS } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { emailChecks, useChangeEmail } from '../api/email.ts';
import { EMAIL_TEXT } from '../security-text.ts';

/**
 * Profile's "Change email": a button that opens a one-field form. A protected change: the sudo
 * dialog asks for a proof first when the session has none from the last 10 minutes.
 */
export function EmailChangeForm({ current }: { current: string }) {
  const change = useChangeEmail();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setOpen(false);
    setEmail('');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const parsed = (await emailChecks()).safeParse({ email });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? EMAIL_TEXT.failed);
    if (parsed.data.email.toLowerCase() === current.toLowerCase()) return setError(SESSIONS.sameEmail);
    change.mutate(parsed.data, {
      onSuccess: (user) => {
        close();
        notify({ title: SESSIONS.emailChanged, description: user.email });
      },
      onError: (failure) => setError(messageOf(failure, EMAIL_TEXT.failed)),
    });
  };

  if (!open) {
    return (
      <Button variant="outline" size="sm" alignSelf="start" onClick={() => setOpen(true)}>
        <Mail /> {EMAIL_TEXT.change}
      </Button>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={EMAIL_TEXT.change}>
      <Stack gap="3">
        <Field.Root invalid={error !== null}>
          <Field.Label>{EMAIL_TEXT.new}</Field.Label>
          <Input
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(null);
            }}
            autoComplete="email"
            autoFocus
          />
          {error && <Field.ErrorText>{error}</Field.ErrorText>}
        </Field.Root>
        <HStack gap="2" wrap="wrap">
          <Button type="submit" size="sm" loading={change.isPending} loadingText={EMAIL_TEXT.saving}>
            {EMAIL_TEXT.save}
          </Button>
          <Button variant="ghost" size="sm" onClick={close} disabled={change.isPending}>
            {EMAIL_TEXT.cancel}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

import { Alert, Button, Card, Field, Input, Spinner, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { SESSIONS, VALIDATION } from '@moonrelay/contract/messages';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { useSignInMethods } from '../api/google-link.ts';
import { passwordChecks, useChangePassword } from '../api/password.ts';
import { PASSWORD_TEXT } from '../security-text.ts';

type FieldName = 'current' | 'new' | 'confirm';
/** Where a refusal is shown: under the field it is about, or over the button. */
type ErrorPlace = FieldName | 'form';

function PasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  autoComplete: string;
}) {
  return (
    <Field.Root invalid={props.error !== undefined}>
      <Field.Label>{props.label}</Field.Label>
      <Input
        type="password"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        spellCheck={false}
      />
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}

/**
 * Settings → Password: change it with the current one as proof, or set one on an account that
 * signs in without (Google only): then the proof is the sudo dialog's. The server's answer says how
 * many other sessions it signed out, and stays under the form.
 */
export function PasswordCard() {
  const methods = useSignInMethods();
  const change = useChangePassword();
  const [values, setValues] = useState<Record<FieldName, string>>({ current: '', new: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<ErrorPlace, string>>>({});
  const [done, setDone] = useState<string | null>(null);
  const hasPassword = methods.data?.password ?? true;

  const edit = (field: FieldName) => (value: string) => {
    setValues((old) => ({ ...old, [field]: value }));
    setErrors((old) => ({ ...old, [field]: undefined, form: undefined }));
    setDone(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const request = { ...(hasPassword ? { currentPassword: values.current } : {}), newPassword: values.new };
    const parsed = (await passwordChecks()).safeParse(request);
    const found: Partial<Record<ErrorPlace, string>> = {};
    for (const issue of parsed.error?.issues ?? []) {
      const field: FieldName = issue.path[0] === 'currentPassword' ? 'current' : 'new';
      found[field] ??= issue.message;
    }
    if (!found.new && values.confirm !== values.new) found.confirm = VALIDATION.passwordsDontMatch;
    setErrors(found);
    if (!parsed.success || found.confirm) return;
    change.mutate(parsed.data, {
      onSuccess: ({ message }) => {
        setValues({ current: '', new: '', confirm: '' });
        setDone(message);
      },
      onError: (error) => {
        const message = messageOf(error, PASSWORD_TEXT.failed);
        if (message === SESSIONS.wrongCurrentPassword) setErrors({ current: message });
        // The same password again, or one the server's checks refuse.
        else if (message === SESSIONS.samePassword || (error instanceof ApiError && error.status === 400)) {
          setErrors({ new: message });
        } else setErrors({ form: message });
      },
    });
  };

  return (
    <Card.Root id="password">
      <Card.Header>
        <Card.Title as="h2">{hasPassword ? PASSWORD_TEXT.title : PASSWORD_TEXT.setTitle}</Card.Title>
        <Card.Description>{hasPassword ? PASSWORD_TEXT.intro : PASSWORD_TEXT.setIntro}</Card.Description>
      </Card.Header>
      <Card.Body>
        {methods.isPending ? (
          <Spinner size="sm" />
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label={PASSWORD_TEXT.title}>
            <Stack gap="4" maxW="md">
              {hasPassword && (
                <PasswordField
                  label={PASSWORD_TEXT.current}
                  value={values.current}
                  onChange={edit('current')}
                  error={errors.current}
                  autoComplete="current-password"
                />
              )}
              <PasswordField
                label={PASSWORD_TEXT.new}
                value={values.new}
                onChange={edit('new')}
                error={errors.new}
                autoComplete="new-password"
              />
              <PasswordField
                label={PASSWORD_TEXT.confirm}
                value={values.confirm}
                onChange={edit('confirm')}
                error={errors.confirm}
                autoComplete="new-password"
              />
              {errors.form && (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{errors.form}</Alert.Title>
                </Alert.Root>
              )}
              {done && (
                <Alert.Root status="success" role="status">
                  <Alert.Indicator />
                  <Alert.Title>{done}</Alert.Title>
                </Alert.Root>
              )}
              <Button type="submit" alignSelf="start" loading={change.isPending} loadingText={PASSWORD_TEXT.changing}>
                {hasPassword ? PASSWORD_TEXT.change : PASSWORD_TEXT.set}
              </Button>
            </Stack>
          </form>
        )}
      </Card.Body>
    </Card.Root>
  );
}

import { Alert, Badge, Button, Card, Field, HStack, Image, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import type { TotpSetup } from '@moonrelay/contract/two-factor';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { messageOf } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import { useConfirmTotp, useDisableTotp, useStartTotp, useTwoFactorStatus } from '../api/two-factor.ts';
import { proofOf } from '../proof.ts';
import { RecoveryCodesPanel } from './RecoveryCodesPanel.tsx';

type Stage =
  | { step: 'idle' }
  | { step: 'password' }
  | { step: 'scan'; setup: TotpSetup }
  | { step: 'codes'; codes: string[] }
  | { step: 'turn-off' };

/** One labelled input with its error under it, for the card's small forms. */
function ProofField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  type?: string;
  autoComplete: string;
}) {
  return (
    <Field.Root invalid={props.error !== null}>
      <Field.Label>{props.label}</Field.Label>
      <Input
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        autoFocus
        spellCheck={false}
      />
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}

/**
 * Settings' two-factor card: set up an authenticator app (the current password, then the QR code or
 * the key typed by hand, then a code to turn it on), the recovery codes shown once, and turning it off
 * with the password, a current code or a recovery code.
 */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const go = (next: Stage) => {
    setStage(next);
    setValue('');
    setError(null);
  };
  const fail = (failure: unknown, fallback: string) => setError(messageOf(failure, fallback));
  const edit = (text: string) => {
    setValue(text);
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stage.step === 'password') {
      start.mutate(value, {
        onSuccess: (setup) => go({ step: 'scan', setup }),
        onError: (f) => fail(f, TWO_FACTOR.wrongPassword),
      });
    } else if (stage.step === 'scan') {
      confirm.mutate(value.trim(), {
        // The panel says it is on, then asks for the codes to be saved; no toast over it.
        onSuccess: ({ recoveryCodes }) => go({ step: 'codes', codes: recoveryCodes }),
        onError: (f) => fail(f, TWO_FACTOR.wrongSetupCode),
      });
    } else if (stage.step === 'turn-off') {
      // The password, a code from the app or a recovery code (for whoever lost the app).
      disable.mutate(proofOf(value), {
        onSuccess: () => {
          go({ step: 'idle' });
          notify({ title: TWO_FACTOR.turnedOff });
        },
        onError: (f) => fail(f, TWO_FACTOR.wrongProof),
      });
    }
  };

  const cancel = (
    <Button variant="ghost" onClick={() => go({ step: 'idle' })}>
      {TWO_FACTOR.cancel}
    </Button>
  );

  let body;
  if (status.isPending) {
    body = <Spinner size="sm" />;
  } else if (status.isError) {
    body = <Text color="fg.error">{messageOf(status.error, 'Two-factor sign-in could not be loaded.')}</Text>;
  } else if (stage.step === 'codes') {
    body = <RecoveryCodesPanel codes={stage.codes} onDone={() => go({ step: 'idle' })} />;
  } else if (stage.step === 'scan') {
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="3">
          <Text>{TWO_FACTOR.scanQr}</Text>
          <Image src={stage.setup.qrCodeDataUrl} alt={TWO_FACTOR.qrAlt} width="220px" height="220px" />
          <Text fontSize="sm" color="fg.muted">
            {TWO_FACTOR.manualKey}
          </Text>
          <Text fontFamily="mono" wordBreak="break-all" data-testid="totp-secret">
            {stage.setup.secret}
          </Text>
          <ProofField
            label={TWO_FACTOR.confirmCode}
            value={value}
            onChange={edit}
            error={error}
            autoComplete="one-time-code"
          />
          <HStack>
            <Button type="submit" colorPalette="purple" loading={confirm.isPending}>
              {TWO_FACTOR.confirm}
            </Button>
            {cancel}
          </HStack>
        </Stack>
      </form>
    );
  } else if (stage.step === 'password' || stage.step === 'turn-off') {
    const turningOff = stage.step === 'turn-off';
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="3">
          <ProofField
            label={turningOff ? TWO_FACTOR.turnOffProof : TWO_FACTOR.currentPassword}
            type={turningOff ? 'text' : 'password'}
            value={value}
            onChange={edit}
            error={error}
            autoComplete={turningOff ? 'off' : 'current-password'}
          />
          <HStack>
            <Button
              type="submit"
              colorPalette={turningOff ? 'red' : 'purple'}
              loading={start.isPending || disable.isPending}
            >
              {turningOff ? TWO_FACTOR.turnOff : TWO_FACTOR.continue}
            </Button>
            {cancel}
          </HStack>
        </Stack>
      </form>
    );
  } else {
    const { totp, recoveryCodesLeft, setupRequired, passkeys } = status.data;
    // On when sign-in asks for a second factor: the app, or a passkey (listed in the card below).
    const on = totp || passkeys > 0;
    body = (
      <Stack gap="3" align="start">
        <HStack>
          <Badge colorPalette={on ? 'green' : 'gray'} data-testid="two-factor-state">
            {on ? TWO_FACTOR.statusOn : TWO_FACTOR.statusOff}
          </Badge>
          {totp && <Text color="fg.muted">{TWO_FACTOR.recoveryCodesLeft(recoveryCodesLeft)}</Text>}
        </HStack>
        {setupRequired && (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Description>{TWO_FACTOR.adminRequiredNotice}</Alert.Description>
          </Alert.Root>
        )}
        {totp ? (
          <Button variant="outline" colorPalette="red" onClick={() => go({ step: 'turn-off' })}>
            {TWO_FACTOR.turnOff}
          </Button>
        ) : (
          <Button variant="outline" onClick={() => go({ step: 'password' })}>
            {on ? TWO_FACTOR.setUpApp : TWO_FACTOR.setUp}
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">{TWO_FACTOR.cardTitle}</Card.Title>
        <Card.Description>{TWO_FACTOR.cardIntro}</Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}

import { Alert, Button, Checkbox, CloseButton, Dialog, Field, Input, Portal, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import {
  BAN_DISPLAY_REASON_MAX_CHARS,
  BAN_MAX_SECONDS,
  BAN_PRIVATE_REASON_MAX_CHARS,
  MODERATION_MESSAGE_MAX_CHARS,
  MODERATION_NOTE_MAX_CHARS,
  PERMANENT_BAN,
  type ModerationAction,
} from '@moonrelay/contract/moderation';
import { messageOf } from '../../../lib/api-client.ts';
import { useModerate, type ModerationRequest } from '../api/moderation.ts';

export type ModerationDialogKind = ModerationRequest['kind'];

const TITLES: Record<ModerationDialogKind, string> = {
  note: 'Add a note',
  warning: 'Warn player',
  kick: 'Kick player',
  ban: 'Ban player',
  editBan: 'Edit ban',
  unban: 'Unban player',
};
const SUBMIT: Record<ModerationDialogKind, string> = {
  note: 'Save note',
  warning: 'Send warning',
  kick: 'Kick',
  ban: 'Ban',
  editBan: 'Save ban',
  unban: 'Unban',
};

interface Props {
  userId: number;
  kind: ModerationDialogKind | null;
  /** The ban in force, which an edit starts from. */
  ban: ModerationAction | null;
  onClose(): void;
}

/** One dialog for every moderation action; it starts afresh each time it opens. */
export function ModerationDialog({ userId, kind, ban, onClose }: Props) {
  return (
    <Dialog.Root
      open={kind !== null}
      onOpenChange={(details) => !details.open && onClose()}
      lazyMount
      unmountOnExit
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="moderation-dialog">
            {kind && <ModerationForm userId={userId} kind={kind} ban={ban} onDone={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A text field with its limit shown, and marked invalid past it. */
function LimitedText(props: {
  label: string;
  value: string;
  max: number;
  onChange(value: string): void;
  helper?: string;
  multiline?: boolean;
  required?: boolean;
}) {
  const over = props.value.length > props.max;
  const Control = props.multiline ? Textarea : Input;
  return (
    <Field.Root invalid={over} required={props.required}>
      <Field.Label>
        {props.label}
        {props.required && <Field.RequiredIndicator />}
      </Field.Label>
      <Control value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)} />
      {over ? (
        <Field.ErrorText>At most {props.max.toLocaleString()} characters.</Field.ErrorText>
      ) : (
        <Field.HelperText>
          {props.helper ? `${props.helper} ` : ''}
          {props.value.length.toLocaleString()} / {props.max.toLocaleString()}
        </Field.HelperText>
      )}
    </Field.Root>
  );
}

function ModerationForm({
  userId,
  kind,
  ban,
  onDone,
}: {
  userId: number;
  kind: ModerationDialogKind;
  ban: ModerationAction | null;
  onDone(): void;
}) {
  const moderate = useModerate(userId);
  const editing = kind === 'editBan' && ban !== null;
  const [text, setText] = useState(editing ? ban.message : '');
  const [privateReason, setPrivateReason] = useState(editing ? (ban.privateReason ?? '') : '');
  const [permanent, setPermanent] = useState(editing ? ban.durationSeconds === null : false);
  const [duration, setDuration] = useState(
    editing && ban.durationSeconds !== null ? String(ban.durationSeconds) : '86400',
  );
  const [excludeAlts, setExcludeAlts] = useState(editing ? ban.excludeAltAccounts : false);

  const isBan = kind === 'ban' || kind === 'editBan';
  const textMax =
    kind === 'note'
      ? MODERATION_NOTE_MAX_CHARS
      : isBan
        ? BAN_DISPLAY_REASON_MAX_CHARS
        : kind === 'unban'
          ? BAN_PRIVATE_REASON_MAX_CHARS
          : MODERATION_MESSAGE_MAX_CHARS;
  const seconds = Number(duration);
  const durationInvalid =
    isBan && !permanent && !(Number.isInteger(seconds) && seconds > 0 && seconds <= BAN_MAX_SECONDS);
  const invalid =
    text.length > textMax ||
    (kind !== 'unban' && text.trim() === '') ||
    (isBan && privateReason.length > BAN_PRIVATE_REASON_MAX_CHARS) ||
    durationInvalid;

  const request = (): ModerationRequest => {
    if (kind === 'note') return { kind, text };
    if (kind === 'warning' || kind === 'kick') return { kind, message: text };
    if (kind === 'unban') return { kind, reason: text.trim() || undefined };
    return {
      kind,
      ban: {
        durationSeconds: permanent ? PERMANENT_BAN : seconds,
        displayReason: text,
        ...(privateReason.trim() ? { privateReason } : {}),
        excludeAltAccounts: excludeAlts,
      },
    };
  };
  const submit = () => moderate.mutate(request(), { onSuccess: onDone });

  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{TITLES[kind]}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <LimitedText
            label={
              kind === 'note'
                ? 'Note (only you and admins see it)'
                : isBan
                  ? 'Reason shown to the player'
                  : kind === 'unban'
                    ? 'Reason (optional, kept in the history)'
                    : 'Message shown to the player'
            }
            value={text}
            max={textMax}
            onChange={setText}
            multiline={kind === 'note'}
            required={kind !== 'unban'}
          />
          {isBan && (
            <>
              <LimitedText
                label="Private reason (never shown to the player)"
                value={privateReason}
                max={BAN_PRIVATE_REASON_MAX_CHARS}
                onChange={setPrivateReason}
                multiline
              />
              <Checkbox.Root checked={permanent} onCheckedChange={(details) => setPermanent(details.checked === true)}>
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>Permanent</Checkbox.Label>
              </Checkbox.Root>
              <Field.Root invalid={durationInvalid} disabled={permanent}>
                <Field.Label>Duration in seconds</Field.Label>
                <Input
                  inputMode="numeric"
                  value={duration}
                  onChange={(event) => setDuration(event.currentTarget.value)}
                />
                {durationInvalid ? (
                  <Field.ErrorText>A whole number of seconds above 0, or Permanent.</Field.ErrorText>
                ) : (
                  <Field.HelperText>86400 is a day, 604800 a week.</Field.HelperText>
                )}
              </Field.Root>
              <Checkbox.Root
                checked={excludeAlts}
                onCheckedChange={(details) => setExcludeAlts(details.checked === true)}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>Leave their alt accounts unbanned</Checkbox.Label>
              </Checkbox.Root>
            </>
          )}
          {moderate.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{messageOf(moderate.error, 'The action failed')}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button variant="ghost" disabled={moderate.isPending}>
            Cancel
          </Button>
        </Dialog.ActionTrigger>
        <Button
          colorPalette={kind === 'ban' || kind === 'kick' ? 'red' : 'purple'}
          onClick={submit}
          loading={moderate.isPending}
          disabled={invalid}
        >
          {SUBMIT[kind]}
        </Button>
      </Dialog.Footer>
    </>
  );
}

import { Input, Stack } from '@chakra-ui/react';
import type { Ref } from 'react';
import { CopyButton } from './CopyButton.tsx';

/**
 * A secret the server shows once (an invitation link, a share link): read-only, selected whole when
 * focused, with a copy button beside it. `describedBy` names the text that says it is shown once.
 */
export function ShownOnceField(props: {
  value: string;
  label: string;
  describedBy: string;
  copyLabel: string;
  copiedTitle: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Stack direction="row" gap="2">
      <Input
        ref={props.inputRef}
        readOnly
        aria-label={props.label}
        aria-describedby={props.describedBy}
        fontFamily="mono"
        value={props.value}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={props.value} label={props.copyLabel} copiedTitle={props.copiedTitle} />
    </Stack>
  );
}

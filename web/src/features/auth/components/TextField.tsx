import { Field, Input } from '@chakra-ui/react';
import type { InputHTMLAttributes } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
}

/** A labelled input whose validation message shows under it. */
export function TextField({ label, registration, error, ...input }: Props) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input {...input} {...registration} />
      {error?.message && <Field.ErrorText>{error.message}</Field.ErrorText>}
    </Field.Root>
  );
}

import { Card, Field, Input, Stack } from '@chakra-ui/react';
import type { User } from '@moonrelay/contract/auth';
import { formatDate } from '../../../lib/format.ts';
import { EmailChangeForm } from './EmailChangeForm.tsx';

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Field.Root readOnly>
      <Field.Label>{label}</Field.Label>
      <Input readOnly value={value} />
    </Field.Root>
  );
}

/** The account's details, read-only (spec section 5); the email changes through its own small form. */
export function ProfileCard({ user }: { user: User }) {
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Profile</Card.Title>
        <Card.Description>Your account information.</Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <ReadOnlyField label="Name" value={user.name} />
          <ReadOnlyField label="Email" value={user.email} />
          <EmailChangeForm current={user.email} />
          {user.googleId !== null && <ReadOnlyField label="Google ID" value={user.googleId} />}
          <ReadOnlyField label="Account created" value={formatDate(user.createdAt)} />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

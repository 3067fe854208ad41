import { Heading, Stack, Text } from '@chakra-ui/react';

/** Screens that arrive in a later release say so plainly rather than pretending to work. */
export function ComingLaterPage({ title }: { title: string }) {
  return (
    <Stack gap="3">
      <Heading size="2xl">{title}</Heading>
      <Text color="fg.muted">This screen is coming with a later release of Moonrelay.</Text>
    </Stack>
  );
}

import { Alert, Badge, Center, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useSharedScript } from '../api/shares.ts';
import { SHARE_TEXT } from './share-text.ts';
import { SharedCode } from './SharedCode.tsx';

interface Props {
  token: string;
  /** What the visitor can do with it: copy it into their team, or sign in to. */
  action: ReactNode;
}

/**
 * A script shared by a link (`/shared/<token>`): its name, description, version and code, read
 * only, signed in or not. A link that was stopped (or whose script was deleted) says so in the
 * server's words.
 */
export function SharedScriptScreen({ token, action }: Props) {
  const shared = useSharedScript(token);

  if (shared.isPending) {
    return (
      <Center py="16">
        <Spinner aria-label={SHARE_TEXT.loading} />
      </Center>
    );
  }
  if (shared.isError) {
    return (
      <Stack gap="6" maxW="3xl">
        <PageHeading>{SHARE_TEXT.pageTitle}</PageHeading>
        <Alert.Root status="error" data-testid="shared-script-error">
          <Alert.Indicator />
          <Alert.Title>{messageOf(shared.error, SHARE_TEXT.loadFailed)}</Alert.Title>
        </Alert.Root>
      </Stack>
    );
  }

  const script = shared.data;
  return (
    <Stack gap="6">
      <Stack gap="2">
        <Text fontSize="sm" fontWeight="medium" color="fg.muted">
          {SHARE_TEXT.pageTitle}
        </Text>
        <PageHeading title={`${SHARE_TEXT.pageTitle}: ${script.name}`} wordBreak="break-word">
          {script.name}
        </PageHeading>
        {script.description && <Text wordBreak="break-word">{script.description}</Text>}
        <HStack gap="3" wrap="wrap">
          <Badge colorPalette="purple">{SHARE_TEXT.version(script.version)}</Badge>
          <Text fontSize="sm" color="fg.muted">
            {SHARE_TEXT.sharedOn(formatDate(script.sharedAt))} ·{' '}
            {SHARE_TEXT.updatedOn(formatDateTime(script.updatedAt))}
          </Text>
        </HStack>
      </Stack>
      {action}
      <SharedCode code={script.code} label={SHARE_TEXT.code(script.name)} />
    </Stack>
  );
}

import { Alert, Card, Center, Spinner, Text } from '@chakra-ui/react';
import { messageOf } from '../../../lib/api-client.ts';
import { useCan } from '../../../lib/team-access.ts';
import { useShares } from '../api/shares.ts';
import { SHARE_TEXT } from './share-text.ts';
import { SharesTable } from './SharesTable.tsx';

/**
 * Settings → Shared links: every read-only link to the scripts of the team the dashboard acts on
 * (the person's own account included), which script, when and by whom, each with Stop sharing.
 * Not asked for where the member's role may not read scripts: the card says so instead.
 */
export function SharedLinksCard() {
  const read = useCan('scripts.read');
  const stop = useCan('scripts.write');
  const shares = useShares(read.allowed);

  let body;
  if (!read.allowed) {
    body = <Text color="fg.muted">{read.reason}</Text>;
  } else if (shares.isPending) {
    body = (
      <Center py="4">
        <Spinner />
      </Center>
    );
  } else if (shares.isError) {
    body = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{messageOf(shares.error, SHARE_TEXT.loadLinksFailed)}</Alert.Title>
      </Alert.Root>
    );
  } else {
    body = <SharesTable shares={shares.data.items} showScript stop={stop} emptyText={SHARE_TEXT.noLinks} />;
  }

  return (
    <Card.Root id="shared-links">
      <Card.Header>
        <Card.Title as="h2">{SHARE_TEXT.cardTitle}</Card.Title>
        <Card.Description>{SHARE_TEXT.cardIntro}</Card.Description>
      </Card.Header>
      <Card.Body>{body}</Card.Body>
    </Card.Root>
  );
}

import { Badge, Button, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ApiKeySummary } from '@moonrelay/contract/api-keys';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';

interface Props {
  keys: ApiKeySummary[];
  /** Revokes a key; a rejection keeps the dialog open (the caller tells the user why). */
  onRevoke: (key: ApiKeySummary) => Promise<void>;
  /** Whose keys these are, for the confirmation's wording ("your" or the user's name). */
  owner?: string;
}

const isExpired = (key: ApiKeySummary, now = Date.now()) => key.expiresAt !== null && Date.parse(key.expiresAt) <= now;

function lastUsed(key: ApiKeySummary): string {
  if (!key.lastUsedAt) return 'Never used';
  return `Last used ${formatDateTime(key.lastUsedAt)}${key.lastUsedIp ? ` from ${key.lastUsedIp}` : ''}`;
}

/** Scoped API keys (Settings, and a user's keys in the admin panel): what each may do, its limits, and Revoke. */
export function ApiKeyList({ keys, onRevoke, owner }: Props) {
  if (keys.length === 0) return <Text color="fg.muted">No API keys yet.</Text>;
  return (
    <Stack as="ul" gap="3" listStyleType="none" aria-label="API keys">
      {keys.map((key) => (
        <ApiKeyItem key={key.id} apiKey={key} onRevoke={onRevoke} owner={owner} />
      ))}
    </Stack>
  );
}

function ApiKeyItem({ apiKey: key, onRevoke, owner }: { apiKey: ApiKeySummary } & Omit<Props, 'keys'>) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const expired = isExpired(key);
  const confirm = async () => {
    setPending(true);
    try {
      await onRevoke(key);
      setOpen(false);
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack as="li" gap="2" borderWidth="1px" borderRadius="md" p="3" aria-label={key.name}>
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Stack gap="1" minW="0">
          <HStack gap="2" wrap="wrap">
            <Text fontWeight="semibold" wordBreak="break-word">
              {key.name}
            </Text>
            {expired && <Badge colorPalette="red">Expired</Badge>}
          </HStack>
          <Text fontFamily="mono" fontSize="sm" color="fg.muted">
            {key.maskedKey}
          </Text>
        </Stack>
        <ConfirmDialog
          trigger={
            <Button size="sm" variant="outline" colorPalette="red" aria-label={`Revoke ${key.name}`}>
              <Trash2 /> Revoke
            </Button>
          }
          open={open}
          onOpenChange={setOpen}
          title="Revoke API key"
          confirmLabel="Revoke"
          pendingLabel="Revoking..."
          pending={pending}
          onConfirm={() => void confirm()}
        >
          <Text>
            Revoke <strong>{key.name}</strong>
            {owner ? ` of ${owner}` : ''}? Anything that uses it stops working at once
            {key.integration ? ', including games running the integration scripts' : ''}. This cannot be undone.
          </Text>
        </ConfirmDialog>
      </HStack>
      <Wrap gap="1" aria-label="Scopes">
        {key.scopes.map((scope) => (
          <Badge key={scope} variant="subtle" fontFamily="mono">
            {scope}
          </Badge>
        ))}
      </Wrap>
      <Text fontSize="sm" color="fg.muted">
        Created {formatDate(key.createdAt)} ·{' '}
        {key.expiresAt ? `${expired ? 'Expired' : 'Expires'} ${formatDate(key.expiresAt)}` : 'Never expires'}
        {key.allowedIps ? ` · Only from ${key.allowedIps.join(', ')}` : ''}
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {lastUsed(key)}
      </Text>
    </Stack>
  );
}

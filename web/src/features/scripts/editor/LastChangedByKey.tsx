import { HStack, Text } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';

/**
 * Says which API key made the script's last change, when one did: a change the owner did not make
 * in the browser stands out (a leaked key rewriting an auto-execute script, say).
 */
export function LastChangedByKey({ keyName }: { keyName: string | null }) {
  if (!keyName) return null;
  return (
    <HStack gap="2" fontSize="sm" color="fg.muted" mt="-3">
      <KeyRound size={14} aria-hidden />
      <Text>
        Last changed by key <strong>{keyName}</strong>
      </Text>
    </HStack>
  );
}

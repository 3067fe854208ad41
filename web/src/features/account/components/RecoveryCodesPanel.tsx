import { Alert, Box, Button, HStack, SimpleGrid, Stack } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { downloadTextFile } from '../../../lib/download.ts';

/**
 * The recovery codes, shown once right after two-factor sign-in is turned on: first that it is on,
 * then the codes and what to do with them, then the one way on (having saved them).
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n') + '\n';
  return (
    <Stack gap="3" data-testid="recovery-codes">
      <Alert.Root status="success">
        <Alert.Indicator />
        <Alert.Title>{TWO_FACTOR.turnedOn}</Alert.Title>
      </Alert.Root>
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{TWO_FACTOR.recoveryTitle}</Alert.Title>
          <Alert.Description>{TWO_FACTOR.recoveryIntro}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2 }} gap="2" listStyleType="none" ps="0">
        {codes.map((code) => (
          <Box as="li" key={code} fontFamily="mono" fontSize="md" px="3" py="1" bg="bg.muted" rounded="md">
            {code}
          </Box>
        ))}
      </SimpleGrid>
      <HStack wrap="wrap">
        <CopyButton value={text} label={TWO_FACTOR.copyCodes} copiedTitle={TWO_FACTOR.codesCopied} />
        <Button variant="outline" onClick={() => downloadTextFile('moonrelay-recovery-codes.txt', text)}>
          <Download /> {TWO_FACTOR.downloadCodes}
        </Button>
        <Button colorPalette="purple" onClick={onDone}>
          {TWO_FACTOR.savedCodes}
        </Button>
      </HStack>
    </Stack>
  );
}

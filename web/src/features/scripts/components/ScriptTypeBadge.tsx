import { Badge } from '@chakra-ui/react';

export function ScriptTypeBadge({ isAutoExecute }: { isAutoExecute: boolean }) {
  return isAutoExecute ? (
    <Badge colorPalette="green" variant="subtle">
      Auto-Execute
    </Badge>
  ) : (
    <Badge colorPalette="gray" variant="subtle">
      Manual
    </Badge>
  );
}

import { Badge, HStack } from '@chakra-ui/react';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { Eye, TriangleAlert } from 'lucide-react';
import { CATALOGUE_TEXT } from '../catalogue-text.ts';
import { formatViews } from '../format-views.ts';

/** Views, Universal, Patched, Key System, and the honest 'Executor only' label. */
export function ScriptBadges({ script, executorFunctions }: { script: CatalogueScript; executorFunctions: string[] }) {
  const { badges } = CATALOGUE_TEXT;
  return (
    <HStack gap="1.5" wrap="wrap">
      <Badge variant="subtle" title={`${script.views.toLocaleString('en')} views`} data-testid="views">
        <Eye size={12} aria-hidden /> {formatViews(script.views)}
      </Badge>
      {script.isUniversal && <Badge colorPalette="blue">{badges.universal}</Badge>}
      {script.isPatched && <Badge colorPalette="red">{badges.patched}</Badge>}
      {script.keySystem && <Badge colorPalette="orange">{badges.keySystem}</Badge>}
      {executorFunctions.length > 0 && (
        <Badge colorPalette="yellow" title={CATALOGUE_TEXT.executorBadgeTitle(executorFunctions.join(', '))}>
          <TriangleAlert size={12} aria-hidden /> {badges.executor}
        </Badge>
      )}
    </HStack>
  );
}

import { Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import type { CatalogueScript } from '@moonrelay/contract/catalogue';
import { BadgeCheck, Eye, Play, Save } from 'lucide-react';
import { formatDate } from '../../../lib/format.ts';
import type { Can } from '../../../lib/team-access.ts';
import { CATALOGUE_TEXT } from '../catalogue-text.ts';
import { ScriptBadges } from './ScriptBadges.tsx';
import { ScriptImage } from './ScriptImage.tsx';

/** The game a script is for, or 'Universal Script'. */
export const gameLabel = (script: CatalogueScript) =>
  script.isUniversal || !script.game.name ? CATALOGUE_TEXT.universalScript : script.game.name;

interface Props {
  script: CatalogueScript;
  onPreview(): void;
  onExecute(): void;
  onSave(): void;
  executing: boolean;
  saving: boolean;
  /** What the member's role allows: a refused action is disabled, with the reason as its title. */
  can: { run: Can; save: Can };
}

/** One catalogue script (spec section 2): image, title, game, verified icon, badges, date and actions. */
export function ScriptCard({ script, onPreview, onExecute, onSave, executing, saving, can }: Props) {
  return (
    <Card.Root role="article" aria-label={script.title} overflow="hidden" size="sm">
      <ScriptImage src={script.game.imageUrl ?? script.image} alt={gameLabel(script)} />
      <Card.Body gap="2">
        <HStack gap="1.5" align="flex-start">
          {/* Right under the page's h1: an h3 here would skip a level. */}
          <Card.Title as="h2" fontSize="md" lineClamp={2} flex="1">
            {script.title}
          </Card.Title>
          {script.verified && (
            <Text as="span" color="blue.400" flexShrink={0} mt="0.5">
              <BadgeCheck size={18} aria-label={CATALOGUE_TEXT.verified} role="img" />
            </Text>
          )}
        </HStack>
        <Text fontSize="sm" color="fg.muted" lineClamp={1}>
          {gameLabel(script)}
        </Text>
        <ScriptBadges script={script} executorFunctions={script.executorFunctions} />
        {/* fg.subtle is under 4.5:1 on the dark card at this size. */}
        <Text fontSize="xs" color="fg.muted">
          {formatDate(script.createdAt)}
        </Text>
      </Card.Body>
      <Card.Footer>
        <Stack direction="row" gap="2" width="100%">
          <Button size="xs" variant="outline" flex="1" onClick={onPreview}>
            <Eye size={14} /> {CATALOGUE_TEXT.preview}
          </Button>
          <Button
            size="xs"
            colorPalette="purple"
            flex="1"
            onClick={onExecute}
            loading={executing}
            disabled={!can.run.allowed}
            title={can.run.reason}
          >
            <Play size={14} /> {CATALOGUE_TEXT.execute}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            flex="1"
            onClick={onSave}
            loading={saving}
            disabled={!can.save.allowed}
            title={can.save.reason}
          >
            <Save size={14} /> {CATALOGUE_TEXT.save}
          </Button>
        </Stack>
      </Card.Footer>
    </Card.Root>
  );
}

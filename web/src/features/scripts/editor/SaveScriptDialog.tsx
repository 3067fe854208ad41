import {
  Button,
  CloseButton,
  Dialog,
  Field,
  Fieldset,
  HStack,
  Image,
  Input,
  NativeSelect,
  Portal,
  RadioGroup,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useId, useState } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { EDITOR_TEXT } from './editor-form.ts';
import {
  autoExecuteGamesText,
  gameConfig,
  gameFromTypedId,
  gameOfScript,
  initialScope,
  type AutoExecuteScope,
  type GameChoice,
  type GameConfig,
} from './save-config.ts';

interface Props {
  open: boolean;
  onClose(): void;
  /** The editor's execution type (the form's field is the one place it is chosen). */
  autoExecute: boolean;
  /** The saved script, for its game and where it auto-executes now (null while the script is new). */
  script: Pick<Script, 'gameId' | 'gameName' | 'gameImageUrl' | 'isAutoExecute' | 'autoExecuteGames'> | null;
  /** The game the user is in now; there is none until a game is linked to the dashboard. */
  currentGame?: GameChoice | null;
  recentGames: readonly GameChoice[];
  saving: boolean;
  /**
   * Saves the form (name, description, code, execution type) with these game fields; null leaves
   * the script's game fields as they are (a manual script, or Keep Current Games).
   */
  onSave(config: GameConfig | null): void;
}

/** The 'Save Script Configuration' modal (spec section 4). It starts afresh every time it opens. */
export function SaveScriptDialog({ open, onClose, ...form }: Props) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      lazyMount
      unmountOnExit
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <SaveConfigForm {...form} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function SaveConfigForm({
  autoExecute,
  script,
  currentGame = null,
  recentGames,
  saving,
  onSave,
}: Omit<Props, 'open' | 'onClose'>) {
  const scriptGame = gameOfScript(script);
  const [scope, setScope] = useState<AutoExecuteScope>(() => initialScope(script, currentGame));
  const [recentId, setRecentId] = useState(scriptGame?.id ?? '');
  const [typedId, setTypedId] = useState('');
  const keptGamesId = useId();

  // The script's own game is always offered, even before the scripts list has it.
  const games =
    scriptGame && !recentGames.some((game) => game.id === scriptGame.id) ? [scriptGame, ...recentGames] : recentGames;
  const typedGame = gameFromTypedId(typedId);
  const typedInvalid = typedId.trim() !== '' && !typedGame;
  const specificGame = typedId.trim() ? typedGame : (games.find((game) => game.id === recentId) ?? null);
  const chosenGame = scope === 'current' ? currentGame : scope === 'specific' ? specificGame : null;
  const missingGame = autoExecute && scope !== 'all' && !chosenGame;
  // Only a script that auto-executes already has games to keep.
  const currentGames = autoExecute ? autoExecuteGamesText(script) : null;

  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{EDITOR_TEXT.saveDialogTitle}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="5">
          <Stack gap="1" data-testid="save-execution-type">
            <Text fontWeight="medium">{autoExecute ? EDITOR_TEXT.autoExecute : EDITOR_TEXT.manual}</Text>
            <Text fontSize="sm" color="fg.muted">
              {autoExecute
                ? 'Your game runs this script once when you join a game it applies to. Choose the games below.'
                : `It runs only when you start it: Run in Sandbox, Execute, a schedule or the API. For your game to run it when you join, set Execution Type to ${EDITOR_TEXT.autoExecute}.`}
            </Text>
          </Stack>

          {autoExecute && (
            <Fieldset.Root>
              <Fieldset.Legend>Auto-execute in</Fieldset.Legend>
              <RadioGroup.Root
                value={scope}
                onValueChange={(details) => details.value && setScope(details.value as AutoExecuteScope)}
                colorPalette="purple"
              >
                <Stack gap="2" mt="2">
                  <ScopeOption value="all" label="All games" />
                  <ScopeOption
                    value="current"
                    label={currentGame ? `Current game (${currentGame.name})` : 'Current game (no game connected)'}
                    disabled={!currentGame}
                  />
                  <ScopeOption value="specific" label="A specific game" />
                </Stack>
              </RadioGroup.Root>
            </Fieldset.Root>
          )}

          {autoExecute && scope === 'specific' && (
            <Stack gap="3" ps="6">
              {games.length > 0 && (
                <Field.Root disabled={typedId.trim() !== ''}>
                  <Field.Label>Recent games</Field.Label>
                  <NativeSelect.Root>
                    <NativeSelect.Field value={recentId} onChange={(event) => setRecentId(event.currentTarget.value)}>
                      <option value="">Choose a game</option>
                      {games.map((game) => (
                        <option key={game.id} value={game.id}>
                          {game.name} ({game.id})
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
              )}
              <Field.Root invalid={typedInvalid}>
                <Field.Label>Game or universe ID</Field.Label>
                <Input
                  value={typedId}
                  onChange={(event) => setTypedId(event.currentTarget.value)}
                  inputMode="numeric"
                  placeholder="e.g. 920587237"
                />
                {typedInvalid ? (
                  <Field.ErrorText>Enter the game's numeric ID.</Field.ErrorText>
                ) : (
                  <Field.HelperText>
                    {games.length > 0 ? 'Overrides the recent game chosen above.' : 'The game id from its Roblox page.'}
                  </Field.HelperText>
                )}
              </Field.Root>
              {specificGame && (
                <HStack gap="3" data-testid="chosen-game">
                  {specificGame.imageUrl && (
                    <Image src={specificGame.imageUrl} alt="" boxSize="8" borderRadius="sm" objectFit="cover" />
                  )}
                  <Text fontSize="sm">
                    {specificGame.name}{' '}
                    <Text as="span" color="fg.muted">
                      ({specificGame.id})
                    </Text>
                  </Text>
                </HStack>
              )}
            </Stack>
          )}

          {currentGames && (
            <Text fontSize="sm" color="fg.muted" id={keptGamesId} data-testid="kept-games">
              Save with Auto-Execute saves it for the games chosen above; Keep Current Games saves your changes and
              leaves the games as they are now: {currentGames}.
            </Text>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer flexWrap="wrap">
        <Dialog.ActionTrigger asChild>
          <Button variant="ghost" disabled={saving}>
            Cancel
          </Button>
        </Dialog.ActionTrigger>
        {currentGames && (
          <Button variant="outline" onClick={() => onSave(null)} disabled={saving} aria-describedby={keptGamesId}>
            Keep Current Games
          </Button>
        )}
        <Button
          colorPalette="purple"
          onClick={() => onSave(autoExecute ? gameConfig(chosenGame) : null)}
          loading={saving}
          disabled={missingGame}
        >
          {autoExecute ? 'Save with Auto-Execute' : 'Save Script'}
        </Button>
      </Dialog.Footer>
    </>
  );
}

function ScopeOption({ value, label, disabled }: { value: AutoExecuteScope; label: string; disabled?: boolean }) {
  return (
    <RadioGroup.Item value={value} disabled={disabled}>
      <RadioGroup.ItemHiddenInput />
      <RadioGroup.ItemIndicator />
      <RadioGroup.ItemText>{label}</RadioGroup.ItemText>
    </RadioGroup.Item>
  );
}

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
  Switch,
  Text,
} from '@chakra-ui/react';
import { useState } from 'react';
import type { Script } from '@moonrelay/contract/scripts';
import { EDITOR_TEXT } from './editor-form.ts';
import {
  gameConfig,
  gameFromTypedId,
  gameOfScript,
  initialScope,
  type AutoExecuteScope,
  type GameChoice,
  type GameConfig,
} from './save-config.ts';

/** The primary button's choice: auto-execute on or off, and with it on, where it runs. */
export interface SaveChoice {
  autoExecute: boolean;
  /** Only with auto-execute on: the game fields to save. */
  config: GameConfig | null;
}

interface Props {
  open: boolean;
  onClose(): void;
  /** Where the toggle starts: the editor's execution type. */
  autoExecute: boolean;
  /** The saved script, for its game (null while the script is new). */
  script: Pick<Script, 'gameId' | 'gameName' | 'gameImageUrl'> | null;
  /** The game the user is in now; there is none until a game is linked to the dashboard. */
  currentGame?: GameChoice | null;
  recentGames: readonly GameChoice[];
  saving: boolean;
  onSave(choice: SaveChoice): void;
  onSaveOnly(): void;
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
  autoExecute: initialAutoExecute,
  script,
  currentGame = null,
  recentGames,
  saving,
  onSave,
  onSaveOnly,
}: Omit<Props, 'open' | 'onClose'>) {
  const scriptGame = gameOfScript(script);
  const [autoExecute, setAutoExecute] = useState(initialAutoExecute);
  const [scope, setScope] = useState<AutoExecuteScope>(() => initialScope(script, currentGame));
  const [recentId, setRecentId] = useState(scriptGame?.id ?? '');
  const [typedId, setTypedId] = useState('');

  // The script's own game is always offered, even before the scripts list has it.
  const games =
    scriptGame && !recentGames.some((game) => game.id === scriptGame.id) ? [scriptGame, ...recentGames] : recentGames;
  const typedGame = gameFromTypedId(typedId);
  const typedInvalid = typedId.trim() !== '' && !typedGame;
  const specificGame = typedId.trim() ? typedGame : (games.find((game) => game.id === recentId) ?? null);
  const chosenGame = scope === 'current' ? currentGame : scope === 'specific' ? specificGame : null;
  const missingGame = autoExecute && scope !== 'all' && !chosenGame;

  const save = () => onSave({ autoExecute, config: autoExecute ? gameConfig(chosenGame) : null });

  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{EDITOR_TEXT.saveDialogTitle}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="5">
          <Switch.Root
            checked={autoExecute}
            onCheckedChange={(details) => setAutoExecute(details.checked)}
            colorPalette="purple"
          >
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>Auto-execute</Switch.Label>
          </Switch.Root>
          <Text fontSize="sm" color="fg.muted">
            {autoExecute
              ? 'Your game client runs this script once when you join a game it applies to.'
              : 'The script runs only when you execute it.'}
          </Text>

          <Fieldset.Root disabled={!autoExecute}>
            <Fieldset.Legend>Auto-execute in</Fieldset.Legend>
            <RadioGroup.Root
              value={scope}
              onValueChange={(details) => details.value && setScope(details.value as AutoExecuteScope)}
              disabled={!autoExecute}
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

          {scope === 'specific' && (
            <Stack gap="3" ps="6">
              {games.length > 0 && (
                <Field.Root disabled={!autoExecute || typedId.trim() !== ''}>
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
              <Field.Root invalid={typedInvalid} disabled={!autoExecute}>
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
        </Stack>
      </Dialog.Body>
      <Dialog.Footer flexWrap="wrap">
        <Dialog.ActionTrigger asChild>
          <Button variant="ghost" disabled={saving}>
            Cancel
          </Button>
        </Dialog.ActionTrigger>
        <Button variant="outline" onClick={onSaveOnly} disabled={saving}>
          Save Only
        </Button>
        <Button colorPalette="purple" onClick={save} loading={saving} disabled={missingGame}>
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

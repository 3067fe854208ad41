import {
  Box,
  Button,
  Card,
  Field,
  Flex,
  HStack,
  Input,
  Kbd,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { FlaskConical, Gamepad2, Play, Save, WandSparkles, Zap } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { SAVE_AND_EXECUTE_DELAY_MS } from '@moonrelay/contract/constants';
import { VALIDATION } from '@moonrelay/contract/messages';
import type { CreateScriptRequest, Script } from '@moonrelay/contract/scripts';
import { ApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toaster.tsx';
import {
  useCreateScript,
  useExecuteCode,
  useExecuteScript,
  useFormatLua,
  useUpdateScript,
  type ExecutionResult,
  type ExecutionTarget,
} from '../api/scripts.ts';
import {
  EDITOR_TEXT,
  EDITOR_TOASTS,
  EditorFormSchema,
  formValuesOf,
  scriptFieldsOf,
  type EditorFormInput,
  type EditorFormValues,
} from './editor-form.ts';
import { savedWithErrorsText } from './diagnostics.ts';
import { saveFailureText } from './save-failure.ts';
import {
  executionFailure,
  executionOutcome,
  withRunLink,
  type ExecutionOutcome,
} from '../../../lib/execution-result.ts';
import { ExecutionOutput, type Execution } from '../../../components/ExecutionOutput.tsx';
import { CloudRunOutput } from '../../../components/CloudRunOutput.tsx';
import { CLOUD_RUN_TEXT } from '../../../lib/cloud-run.ts';
import { CloudRunButton, CloudRunNote, useCloudReadiness } from './CloudRunControl.tsx';
import { refreshCloudPlace } from '../../../lib/cloud-place.ts';
import { LuaCodeEditor } from './LuaCodeEditor.tsx';
import { SaveScriptDialog } from './SaveScriptDialog.tsx';
import type { GameChoice, GameConfig } from './save-config.ts';
import { SyntaxSummary } from './SyntaxSummary.tsx';
import { ScriptHistory } from '../history/ScriptHistory.tsx';
import { LastChangedByKey } from './LastChangedByKey.tsx';
import { useLuaCheck } from './useLuaCheck.ts';
import { SchedulesPanel } from '../schedules/SchedulesPanel.tsx';
import { PageHeading } from '../../../components/PageHeading.tsx';
import { useGameLink } from '../../../lib/useGameLink.ts';
import { canWith, useTeamPermissions } from '../../../lib/team-access.ts';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { ScriptSharingActions } from '../sharing/ScriptSharingActions.tsx';

interface Props {
  /** The saved script being edited; null while it is new. */
  script: Script | null;
  /** A new script's code to start from, in place of the default. */
  draftCode?: string;
  recentGames: readonly GameChoice[];
  /** A new script was just created (the screen moves to its address). */
  onCreated(script: Script): void;
  /** The line the code opens at (from /editor?id=&line=, e.g. an error's line in the Console). */
  initialLine?: number;
}

const serverReason = (error: unknown) => (error instanceof ApiError ? error.serverMessage : undefined);

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD_KEY = isMac ? '⌘' : 'Ctrl';
const SHIFT_KEY = isMac ? '⇧' : 'Shift';
const ALT_KEY = isMac ? '⌥' : 'Alt';

/** Keyboard shortcut hints mean nothing on a touch screen, and there they pushed the code down. */
const HIDDEN_ON_TOUCH = { '@media (hover: none), (pointer: coarse)': { display: 'none' } } as const;

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The main action's button, and the others'. */
const MAIN_BUTTON = { variant: 'solid', colorPalette: 'purple' } as const;
const SECONDARY_BUTTON = { variant: 'outline', colorPalette: 'gray' } as const;

/** Shift+Alt+F (by physical key: on a Mac, Alt+Shift+F types a character). */
const isFormatShortcut = (event: KeyboardEvent) =>
  event.shiftKey &&
  event.altKey &&
  !event.ctrlKey &&
  !event.metaKey &&
  (event.code === 'KeyF' || event.key.toLowerCase() === 'f');

/** The Script Editor (spec section 2): details, Luau code, execute/save actions and the output pane. */
export function ScriptEditor({ script, draftCode, recentGames, onCreated, initialLine }: Props) {
  const scriptId = script?.id ?? null;
  const create = useCreateScript();
  const update = useUpdateScript();
  const execute = useExecuteScript();
  const executeCode = useExecuteCode();
  const format = useFormatLua();
  const [execution, setExecution] = useState<Execution>({ status: 'idle' });
  const [dialogOpen, setDialogOpen] = useState(false);
  const saving = create.isPending || update.isPending;
  const running = execution.status === 'running';
  const formatting = format.isPending;
  // Without a game the main action is a run in the sandbox, which needs none; Save & Execute (and
  // Ctrl+Enter's Execute) would only answer 'Game Not Connected'.
  const gameConnected = useGameLink().connected;
  // A team member's role may not allow saving or running: those buttons (and their shortcuts) stay
  // disabled, and the note under them says which permission each needs.
  const permissions = useTeamPermissions();
  const can = {
    save: canWith(permissions, 'scripts.write'),
    sandbox: canWith(permissions, 'runs.sandbox'),
    game: canWith(permissions, 'runs.sandbox', 'runs.game'),
    // Roblox runs it with the game's real DataStores: the server asks what a game run asks.
    cloud: canWith(permissions, 'runs.sandbox', 'runs.game'),
    // Setting the key or the place for cloud runs: the note links to Settings only for this.
    cloudSettings: canWith(permissions, 'opencloud.manage'),
    saveAndRun: canWith(permissions, 'scripts.write', 'runs.sandbox', 'runs.game'),
    // Making or stopping a share link (the Share dialog asks the same of the role itself).
    share: canWith(permissions, 'scripts.write'),
  };
  // Run in Roblox names the place it runs on, or says what Settings still needs.
  const cloudReadiness = useCloudReadiness();
  const cloudNoteId = useId();
  const refusedNotice = (reason: string | undefined) =>
    notify({ type: 'error', title: EDITOR_TOASTS.failureTitle, description: reason });

  // A run's output comes into view as the run starts and again when it ends: below the code it is
  // under the fold of a laptop screen, and the toast alone shows little of it.
  const outputRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (execution.status === 'idle') return;
    outputRef.current?.scrollIntoView?.({ block: 'nearest', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }, [execution]);

  const {
    register,
    control,
    handleSubmit,
    getValues,
    reset,
    setValue,
    formState: { errors, isDirty },
  } = useForm<EditorFormInput, unknown, EditorFormValues>({
    resolver: zodResolver(EditorFormSchema),
    defaultValues:
      script || draftCode === undefined ? formValuesOf(script) : { ...formValuesOf(null), code: draftCode },
  });

  const code = useWatch({ control, name: 'code' });
  const syntax = useLuaCheck(code);

  // A shortcut pressed twice before React re-renders must not save twice (or create two scripts).
  const saveInFlight = useRef(false);
  const executeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(executeTimer.current), []);

  async function persist(
    request: CreateScriptRequest & GameConfig,
    toasts: { success?: string; failure?: string } = {},
  ): Promise<Script | null> {
    if (saveInFlight.current) return null;
    saveInFlight.current = true;
    const submitted = getValues();
    // Code with syntax errors is saved all the same, with a warning; the count is known (or checked) meanwhile.
    const syntaxErrors = syntax.countErrors(request.code);
    try {
      const saved = scriptId
        ? await update.mutateAsync({ id: scriptId, ...request })
        : await create.mutateAsync(request);
      const errorCount = await syntaxErrors;
      if (errorCount) {
        notify({ type: 'warning', title: EDITOR_TOASTS.savedWithErrors, description: savedWithErrorsText(errorCount) });
      } else {
        notify({ title: toasts.success ?? (scriptId ? EDITOR_TOASTS.updated : EDITOR_TOASTS.created) });
      }
      // The form now matches what is stored; edits typed while the request ran stay (and stay unsaved).
      const stored = formValuesOf(saved);
      const editedMeanwhile = JSON.stringify(getValues()) !== JSON.stringify(submitted);
      reset(stored, { keepValues: editedMeanwhile });
      if (editedMeanwhile) setValue('executionType', stored.executionType);
      if (!scriptId) onCreated(saved);
      return saved;
    } catch (error) {
      const failure = toasts.failure ?? (scriptId ? EDITOR_TOASTS.updateFailed : EDITOR_TOASTS.createFailed);
      notify({
        type: 'error',
        title: EDITOR_TOASTS.failureTitle,
        description: saveFailureText(failure, error),
      });
      return null;
    } finally {
      saveInFlight.current = false;
    }
  }

  const onInvalid = (formErrors: FieldErrors<EditorFormInput>) => {
    if (formErrors.name?.message === VALIDATION.scriptNameRequired) {
      notify({ type: 'error', ...EDITOR_TOASTS.nameRequired });
    }
  };

  /** Name, description, code and execution type, with the game fields chosen (null: left as they are). */
  const saveWithConfig = (config: GameConfig | null) =>
    handleSubmit(async (values) => {
      const request = { ...scriptFieldsOf(values), ...config };
      const saved = await persist(request, { success: EDITOR_TOASTS.saved, failure: EDITOR_TOASTS.saveFailed });
      if (saved) setDialogOpen(false);
    }, onInvalid)();

  const openSaveDialog = can.save.allowed
    ? handleSubmit(() => setDialogOpen(true), onInvalid)
    : async () => refusedNotice(can.save.reason);

  const report = ({ notice, execution: shown }: ExecutionOutcome) => {
    setExecution(shown);
    notify(notice);
  };

  const reportTo = (target: ExecutionTarget) => ({
    onSuccess: (result: ExecutionResult) => report(withRunLink(executionOutcome(result, target), result)),
    onError: (error: unknown) => report(executionFailure(error, target)),
  });

  /** Runs the saved script in the game (the server's default target). */
  const runSaved = (id: string) => {
    setExecution({ status: 'running', target: 'game' });
    execute.mutate({ id }, reportTo('game'));
  };

  // The code the last sandbox run ran: a hint's "Dry run this code" runs it, whatever is on screen now.
  const sandboxCode = useRef('');

  /**
   * Runs the code on screen, saved or not, in Moonrelay's Lua sandbox: as plain Lua, or as a dry run
   * against an emulated game server (which also answers what the script changed).
   */
  const runInSandbox = (target: 'sandbox' | 'dry-run', current = getValues('code')) => {
    if (running || formatting) return;
    if (!can.sandbox.allowed) return refusedNotice(can.sandbox.reason);
    if (!current.trim()) return notify({ type: 'error', ...EDITOR_TOASTS.noCode });
    sandboxCode.current = current;
    setExecution({ status: 'running', target });
    // The script's id goes along: unchanged, the run counts as the script's; edited, as custom code.
    executeCode.mutate({ code: current, target, scriptId }, reportTo(target));
  };

  /**
   * Runs the code on screen, saved or not, in Roblox itself (Open Cloud Luau Execution on the
   * account's place). The call answers it waiting; the output pane then follows the run live.
   */
  const runInCloud = (timeoutSeconds: number) => {
    if (running || formatting) return;
    if (!can.cloud.allowed) return refusedNotice(can.cloud.reason);
    if (cloudReadiness.kind === 'blocked') return refusedNotice(cloudReadiness.reason);
    const current = getValues('code');
    if (!current.trim()) return notify({ type: 'error', ...EDITOR_TOASTS.noCode });
    setExecution({ status: 'running', target: 'cloud' });
    const reporting = reportTo('cloud');
    executeCode.mutate(
      { code: current, target: 'cloud', scriptId, timeoutSeconds },
      {
        ...reporting,
        onError: (error) => {
          reporting.onError(error);
          // Refused (the key or the place changed since it was read): the button says so from now on.
          void refreshCloudPlace();
        },
      },
    );
  };

  /** Replaces the code with the server's formatting of it (Ace keeps the change undoable). */
  const formatCode = () => {
    if (running || formatting) return;
    const original = getValues('code');
    if (!original.trim()) return;
    format.mutate(original, {
      onSuccess: ({ code: formatted }) => {
        // The editor is read-only while formatting; should the code still have changed, keep the edit.
        if (getValues('code') !== original) return;
        if (formatted !== original) setValue('code', formatted, { shouldDirty: true });
        notify({ title: EDITOR_TOASTS.formatted });
      },
      onError: (error) =>
        notify({
          type: 'error',
          title: EDITOR_TOASTS.formatFailedTitle,
          description: serverReason(error) ?? EDITOR_TOASTS.formatFailed,
        }),
    });
  };

  /** Execute runs the saved script; unsaved edits need Save & Execute. */
  const executeSaved = () => {
    if (running || saving || formatting) return;
    if (!can.game.allowed) return refusedNotice(can.game.reason);
    if (!getValues('code').trim()) return notify({ type: 'error', ...EDITOR_TOASTS.noCode });
    if (!scriptId) return notify({ type: 'warning', ...EDITOR_TOASTS.saveFirst });
    runSaved(scriptId);
  };

  /** Ctrl/Cmd+Enter: the main action, Execute with a game connected and a sandbox run without. */
  const runMainAction = () => (gameConnected ? executeSaved() : runInSandbox('sandbox'));

  const saveAndExecute = handleSubmit(async (values) => {
    if (running || formatting) return;
    if (!can.saveAndRun.allowed) return refusedNotice(can.saveAndRun.reason);
    if (!values.code.trim()) return notify({ type: 'error', ...EDITOR_TOASTS.noCode });
    const saved = await persist(scriptFieldsOf(values));
    if (!saved) return;
    clearTimeout(executeTimer.current);
    executeTimer.current = setTimeout(() => runSaved(saved.id), SAVE_AND_EXECUTE_DELAY_MS);
  }, onInvalid);

  // Shortcuts with the focus outside Ace (Ace handles its own, see LuaCodeEditor); the latest
  // handlers are read from a ref so the listener is added once.
  const shortcuts = useRef({ save: () => {}, execute: () => {}, format: () => {}, blocked: false });
  useEffect(() => {
    shortcuts.current = {
      save: () => void openSaveDialog(),
      execute: runMainAction,
      format: formatCode,
      blocked: dialogOpen,
    };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isFormatShortcut(event)) {
        event.preventDefault();
        if (!shortcuts.current.blocked) shortcuts.current.format();
        return;
      }
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key !== 's' && key !== 'enter') return;
      // Never the browser's own "save page" dialog, even while the modal is open.
      event.preventDefault();
      if (shortcuts.current.blocked) return;
      if (key === 's') shortcuts.current.save();
      else shortcuts.current.execute();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const nameError = errors.name?.message !== VALIDATION.scriptNameRequired ? errors.name?.message : undefined;

  return (
    <Stack gap="6">
      <Box>
        <PageHeading>{EDITOR_TEXT.title}</PageHeading>
        <Text color="fg.muted">{script ? EDITOR_TEXT.subtitleEdit : EDITOR_TEXT.subtitleCreate}</Text>
      </Box>

      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <Field.Root invalid={Boolean(errors.name)}>
                <Field.Label>Script Name</Field.Label>
                {/* No maxLength: it would cut a pasted name silently; the check says the maximum. */}
                <Input {...register('name')} placeholder="My script" />
                {nameError && <Field.ErrorText>{nameError}</Field.ErrorText>}
              </Field.Root>
              <Field.Root>
                <Field.Label>Execution Type</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field {...register('executionType')}>
                    <option value="manual">{EDITOR_TEXT.manual}</option>
                    <option value="auto">{EDITOR_TEXT.autoExecute}</option>
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
            </SimpleGrid>
            <Field.Root invalid={Boolean(errors.description)}>
              <Field.Label>Description</Field.Label>
              <Input {...register('description')} placeholder="What does this script do? (optional)" />
              {errors.description?.message && <Field.ErrorText>{errors.description.message}</Field.ErrorText>}
            </Field.Root>
          </Stack>
        </Card.Body>
      </Card.Root>

      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        <HStack wrap="wrap" gap="2">
          <Button
            variant="outline"
            onClick={executeSaved}
            loading={running && execution.target === 'game'}
            loadingText="Executing..."
            disabled={saving || running || formatting || !can.game.allowed}
            title={can.game.reason}
          >
            <Play size={16} /> Execute
          </Button>
          <Button
            {...(gameConnected ? SECONDARY_BUTTON : MAIN_BUTTON)}
            onClick={() => runInSandbox('sandbox')}
            loading={running && execution.target === 'sandbox'}
            loadingText="Running..."
            disabled={running || formatting || !can.sandbox.allowed}
            title={can.sandbox.reason}
            data-main-action={gameConnected ? undefined : ''}
          >
            <FlaskConical size={16} /> Run in Sandbox
          </Button>
          <Button
            variant="outline"
            onClick={() => runInSandbox('dry-run')}
            loading={running && execution.target === 'dry-run'}
            loadingText="Running..."
            disabled={running || formatting || !can.sandbox.allowed}
            title={
              can.sandbox.reason ??
              'Run against an emulated game server in the sandbox and see what the script would change'
            }
          >
            <Gamepad2 size={16} /> Dry run
          </Button>
          <CloudRunButton
            readiness={cloudReadiness}
            can={can.cloud}
            busy={running || formatting}
            loading={running && execution.target === 'cloud'}
            noteId={cloudNoteId}
            onRun={runInCloud}
          />
          <Button
            variant="outline"
            onClick={() => void openSaveDialog()}
            disabled={saving || !can.save.allowed}
            title={can.save.reason}
          >
            <Save size={16} /> Save
          </Button>
          <Button
            {...(gameConnected ? MAIN_BUTTON : SECONDARY_BUTTON)}
            onClick={() => void saveAndExecute()}
            disabled={saving || running || formatting || !can.saveAndRun.allowed}
            data-main-action={gameConnected ? '' : undefined}
            title={
              can.saveAndRun.reason ??
              (gameConnected ? undefined : 'Saves, then runs the script in your game: connect a game first')
            }
          >
            <Zap size={16} /> Save &amp; Execute
          </Button>
          <Button
            variant="ghost"
            onClick={formatCode}
            loading={formatting}
            loadingText="Formatting..."
            disabled={running}
          >
            <WandSparkles size={16} /> Format
          </Button>
          {script && <ScriptSharingActions script={script} />}
        </HStack>
        <Text fontSize="sm" color="fg.muted" css={HIDDEN_ON_TOUCH} data-testid="editor-shortcuts">
          <Kbd>{MOD_KEY}</Kbd>+<Kbd>S</Kbd> saves · <Kbd>{MOD_KEY}</Kbd>+<Kbd>Enter</Kbd>{' '}
          {gameConnected ? 'executes' : 'runs in the sandbox'} · <Kbd>{SHIFT_KEY}</Kbd>+<Kbd>{ALT_KEY}</Kbd>+
          <Kbd>F</Kbd> formats · <Kbd>Esc</Kbd> then <Kbd>Tab</Kbd> leaves the code
        </Text>
      </Flex>
      <PermissionNotes
        notes={[
          { action: 'Save', can: can.save },
          { action: 'Run in Sandbox and Dry run', can: can.sandbox },
          { action: 'Execute in the game', can: can.game },
          ...(script ? [{ action: 'Share', can: can.share }] : []),
        ]}
      />
      <CloudRunNote
        readiness={cloudReadiness}
        can={can.cloud}
        manage={can.cloudSettings.allowed}
        noteId={cloudNoteId}
      />
      {script && <LastChangedByKey keyName={script.lastChangedByKey} />}
      {scriptId && isDirty && (
        <Text fontSize="sm" color="fg.warning" mt="-3">
          Unsaved changes: Execute runs the saved version of this script; Save &amp; Execute, Run in Sandbox, Dry run
          and Run in Roblox run what you see.
        </Text>
      )}

      <Stack gap="2">
        <Controller
          control={control}
          name="code"
          render={({ field }) => (
            <LuaCodeEditor
              value={field.value}
              onChange={field.onChange}
              readOnly={running || formatting}
              onSave={() => void openSaveDialog()}
              onExecute={runMainAction}
              onFormat={formatCode}
              diagnostics={syntax.diagnostics}
              initialLine={initialLine}
            />
          )}
        />
        <SyntaxSummary result={syntax.result} pending={syntax.pending} />
      </Stack>

      <Box ref={outputRef} scrollMarginBlock="4">
        {execution.target === 'cloud' && execution.status === 'queued' && execution.executionId ? (
          <CloudRunOutput executionId={execution.executionId} />
        ) : (
          <ExecutionOutput
            execution={execution}
            runningText={execution.target === 'cloud' ? CLOUD_RUN_TEXT.sending : EDITOR_TEXT.running}
            onDryRun={() => runInSandbox('dry-run', sandboxCode.current)}
          />
        )}
      </Box>

      {script && (
        <ScriptHistory script={script} dirty={isDirty} onRestored={(restored) => reset(formValuesOf(restored))} />
      )}

      <SaveScriptDialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        autoExecute={getValues('executionType') === 'auto'}
        script={script}
        recentGames={recentGames}
        saving={saving}
        onSave={(config) => void saveWithConfig(config)}
      />

      {script && <SchedulesPanel scriptId={script.id} />}
    </Stack>
  );
}

import { Button, Field, HStack, Input, List, NativeSelect, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useMemo, useState } from 'react';
import type {
  CreateScheduleRequest,
  Schedule,
  ScheduleKind,
  ScheduleTarget,
  ScheduleTiming,
} from '@moonrelay/contract/schedules';
import { scheduleRunPermission } from '@moonrelay/contract/schedules';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { canWith, useTeamPermissions } from '../../../lib/team-access.ts';
import { useSchedulePreview } from '../api/schedules.ts';
import { browserTimeZone, runTimeText, TARGET_LABELS, timeZoneChoices } from './schedule-text.ts';

interface Props {
  /** The schedule being changed; null for a new one. */
  schedule: Schedule | null;
  saving: boolean;
  /** The server's refusal of the last save, if any. */
  saveError: string | null;
  onSave: (input: CreateScheduleRequest) => void;
  onCancel: () => void;
}

/** Waits until `value` has stopped changing for `ms` (the preview asks the server once typing pauses). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A schedule's timing and target, with the next five run times as the server computes them before
 * anything is saved (an invalid timing shows the server's reason instead).
 */
export function ScheduleForm({ schedule, saving, saveError, onSave, onCancel }: Props) {
  const [kind, setKind] = useState<ScheduleKind>(schedule?.kind ?? 'cron');
  const [cron, setCron] = useState(schedule?.cron ?? '0 * * * *');
  const [timeZone, setTimeZone] = useState(schedule?.timeZone ?? browserTimeZone());
  const [interval, setIntervalText] = useState(String(schedule?.intervalSeconds ?? 3600));
  const [target, setTarget] = useState<ScheduleTarget>(schedule?.target ?? 'sandbox');
  const [serverId, setServerId] = useState(schedule?.serverId ?? '');
  const zonesId = useId();
  const zones = useMemo(timeZoneChoices, []);

  const timing: ScheduleTiming = useMemo(
    () =>
      kind === 'cron'
        ? { kind, cron: cron.trim(), timeZone: timeZone.trim() }
        : { kind, intervalSeconds: Number(interval) },
    [kind, cron, timeZone, interval],
  );
  const settled = useSettled(timing, 300);
  const preview = useSchedulePreview(settled);
  const previewError = preview.isError ? messageOf(preview.error, 'These times could not be worked out') : null;

  // A schedule runs code as the member who sets it: on a team they must be able to run it where it runs.
  const runsThere = canWith(useTeamPermissions(), scheduleRunPermission(target));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!runsThere.allowed) return;
    onSave({ ...timing, target, serverId: target === 'server' ? serverId.trim() : null });
  };

  return (
    <Stack as="form" gap="4" onSubmit={submit} aria-label={schedule ? 'Edit schedule' : 'New schedule'}>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root>
          <Field.Label>Runs</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={kind} onChange={(event) => setKind(event.target.value as ScheduleKind)}>
              <option value="cron">On a cron schedule</option>
              <option value="interval">Every so many seconds</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root>
          <Field.Label>Target</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={target} onChange={(event) => setTarget(event.target.value as ScheduleTarget)}>
              {(Object.keys(TARGET_LABELS) as ScheduleTarget[]).map((value) => (
                <option key={value} value={value}>
                  {TARGET_LABELS[value]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {target === 'cloud' && (
            <Field.HelperText data-testid="schedule-cloud-note">
              Roblox runs it on the place set in Settings → Roblox Open Cloud, up to 5 minutes a run; each run shows on
              the Runs page with its logs.
            </Field.HelperText>
          )}
        </Field.Root>
        {kind === 'cron' ? (
          <>
            <Field.Root>
              <Field.Label>Cron expression</Field.Label>
              <Input value={cron} onChange={(event) => setCron(event.target.value)} fontFamily="mono" />
              <Field.HelperText>minute hour day-of-month month day-of-week, e.g. 30 2 * * *</Field.HelperText>
            </Field.Root>
            <Field.Root>
              <Field.Label>Time zone</Field.Label>
              <Input value={timeZone} onChange={(event) => setTimeZone(event.target.value)} list={zonesId} />
              <datalist id={zonesId}>
                {zones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </Field.Root>
          </>
        ) : (
          <Field.Root>
            <Field.Label>Every (seconds)</Field.Label>
            <Input
              type="number"
              min={1}
              step={1}
              value={interval}
              onChange={(event) => setIntervalText(event.target.value)}
            />
            <Field.HelperText>At least 60 seconds</Field.HelperText>
          </Field.Root>
        )}
        {target === 'server' && (
          <Field.Root required>
            <Field.Label>Game server id</Field.Label>
            <Input value={serverId} onChange={(event) => setServerId(event.target.value)} />
          </Field.Root>
        )}
      </SimpleGrid>

      <Stack gap="1" aria-live="polite">
        <Text fontWeight="medium">Next five runs</Text>
        {previewError ? (
          <Text color="fg.error" data-testid="schedule-preview-error">
            {previewError}
          </Text>
        ) : preview.data ? (
          <List.Root as="ol" ps="5" data-testid="schedule-preview">
            {preview.data.nextRuns.map((time) => (
              <List.Item key={time}>{runTimeText(time)}</List.Item>
            ))}
          </List.Root>
        ) : (
          <Spinner size="sm" />
        )}
      </Stack>

      {saveError && <Text color="fg.error">{saveError}</Text>}
      <PermissionNotes notes={[{ action: `Run on ${TARGET_LABELS[target]}`, can: runsThere }]} />
      <HStack gap="3" wrap="wrap">
        <Button
          type="submit"
          colorPalette="blue"
          loading={saving}
          loadingText="Saving"
          disabled={Boolean(previewError) || !runsThere.allowed}
          title={runsThere.reason}
        >
          {schedule ? 'Save schedule' : 'Create schedule'}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </HStack>
    </Stack>
  );
}

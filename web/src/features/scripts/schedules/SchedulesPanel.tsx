import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Heading,
  HStack,
  Spinner,
  Stack,
  Switch,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SCHEDULES_PER_USER_MAX } from '@moonrelay/contract/constants';
import type { CreateScheduleRequest, Schedule } from '@moonrelay/contract/schedules';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PermissionNotes } from '../../../components/PermissionNotes.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { canWith, useTeamPermissions, type Can } from '../../../lib/team-access.ts';
import { notify } from '../../../lib/toaster.tsx';
import { RunStatusBadge } from '../../../components/RunStatusBadge.tsx';
import {
  useCreateSchedule,
  useDeleteSchedule,
  useScheduleLiveEvents,
  useSchedules,
  useUpdateSchedule,
} from '../api/schedules.ts';
import { ScheduleForm } from './ScheduleForm.tsx';
import { runTimeText, SCHEDULE_ACTIONS, targetText, timingText } from './schedule-text.ts';

/** The form's state: closed, a new schedule, or one being changed (by id). */
type Editing = null | 'new' | string;

/**
 * The Schedules section of a saved script's editor: its schedules with their next and last runs,
 * last error and skip count, a pause switch each, and a form (with the server's preview of the next
 * five run times) to create or change one. A team member's role may allow reading them (what
 * their endpoint asks: scripts.read) but not setting them up (schedules.manage): the buttons then
 * stay disabled, and the note under the heading says which permission each needs.
 */
export function SchedulesPanel({ scriptId }: { scriptId: string }) {
  const permissions = useTeamPermissions();
  const can = {
    see: canWith(permissions, 'scripts.read'),
    manage: canWith(permissions, 'schedules.manage'),
  };
  const schedules = useSchedules(scriptId, can.see.allowed);
  useScheduleLiveEvents(scriptId);
  const create = useCreateSchedule(scriptId);
  const update = useUpdateSchedule(scriptId);
  const [editing, setEditing] = useState<Editing>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  const open = (next: Editing) => {
    setSaveError(null);
    setEditing(next);
  };
  const save = (input: CreateScheduleRequest) => {
    setSaveError(null);
    const done = {
      onSuccess: () => {
        notify({ title: editing === 'new' ? 'Schedule created' : 'Schedule saved' });
        setEditing(null);
      },
      onError: (error: unknown) => setSaveError(messageOf(error, 'The schedule could not be saved')),
    };
    if (editing === 'new') create.mutate(input, done);
    else if (editing) update.mutate({ id: editing, ...input }, done);
  };
  const editingSchedule = schedules.data?.find((schedule) => schedule.id === editing) ?? null;

  return (
    <Card.Root as="section" aria-labelledby="schedules-heading">
      <Card.Body>
        <Stack gap="4">
          <Flex justify="space-between" align="center" wrap="wrap" gap="3">
            <Box>
              <Heading size="lg" id="schedules-heading">
                Schedules
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                Run this script on a cron schedule or every so often. Up to {SCHEDULES_PER_USER_MAX} schedules per
                account; each run counts toward your execution limit.
              </Text>
            </Box>
            {editing === null && (
              <Button
                size="sm"
                colorPalette="blue"
                onClick={() => open('new')}
                disabled={!can.manage.allowed}
                title={can.manage.reason}
              >
                Add schedule
              </Button>
            )}
          </Flex>
          <PermissionNotes
            notes={[
              { action: SCHEDULE_ACTIONS.see, can: can.see },
              { action: SCHEDULE_ACTIONS.manage, can: can.manage },
            ]}
          />

          {editing !== null && (
            <Box borderWidth="1px" borderRadius="md" p="4">
              <ScheduleForm
                key={editing}
                schedule={editingSchedule}
                saving={create.isPending || update.isPending}
                saveError={saveError}
                onSave={save}
                onCancel={() => setEditing(null)}
              />
            </Box>
          )}

          {/* Not asked for where the role may not read them: the note above says why. */}
          {!can.see.allowed ? null : schedules.isPending ? (
            <Spinner size="sm" />
          ) : schedules.isError ? (
            <Text color="fg.error">The schedules could not be loaded.</Text>
          ) : schedules.data.length === 0 ? (
            <Text color="fg.muted">No schedules yet.</Text>
          ) : (
            <Stack as="ul" gap="3" listStyleType="none" aria-label="Schedules">
              {schedules.data.map((schedule) => (
                <ScheduleItem
                  key={schedule.id}
                  scriptId={scriptId}
                  schedule={schedule}
                  manage={can.manage}
                  onEdit={() => open(schedule.id)}
                />
              ))}
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

interface ItemProps {
  scriptId: string;
  schedule: Schedule;
  /** Whether the member's role allows pausing, changing and deleting it (schedules.manage), and why not. */
  manage: Can;
  onEdit: () => void;
}

function ScheduleItem({ scriptId, schedule, manage, onEdit }: ItemProps) {
  const update = useUpdateSchedule(scriptId);
  const remove = useDeleteSchedule(scriptId);
  const [confirming, setConfirming] = useState(false);
  const label = timingText(schedule);

  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="4" data-testid="schedule">
      <Stack gap="2">
        <Flex justify="space-between" align="flex-start" wrap="wrap" gap="3">
          <Box minW="0">
            <Text
              fontWeight="semibold"
              fontFamily={schedule.kind === 'cron' ? 'mono' : undefined}
              wordBreak="break-word"
            >
              {label}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {targetText(schedule)}
            </Text>
          </Box>
          <HStack gap="3" wrap="wrap">
            <Switch.Root
              checked={schedule.enabled}
              disabled={update.isPending || !manage.allowed}
              title={manage.reason}
              onCheckedChange={(event) =>
                update.mutate(
                  { id: schedule.id, enabled: event.checked },
                  { onError: (error) => notify({ title: messageOf(error, 'Could not change it'), type: 'error' }) },
                )
              }
            >
              <Switch.HiddenInput />
              <Switch.Control />
              {/* Checked is running; the schedule's timing tells one switch from another. */}
              <Switch.Label>
                {schedule.enabled ? 'Running' : 'Paused'}
                <VisuallyHidden>({label})</VisuallyHidden>
              </Switch.Label>
            </Switch.Root>
            <Button
              size="xs"
              variant="outline"
              onClick={onEdit}
              disabled={!manage.allowed}
              title={manage.reason}
              aria-label={`Edit schedule ${label}`}
            >
              Edit
            </Button>
            <ConfirmDialog
              trigger={
                <Button
                  size="xs"
                  variant="outline"
                  colorPalette="red"
                  disabled={!manage.allowed}
                  title={manage.reason}
                  aria-label={`Delete schedule ${label}`}
                >
                  Delete
                </Button>
              }
              open={confirming}
              onOpenChange={setConfirming}
              title="Delete this schedule?"
              confirmLabel="Delete"
              pendingLabel="Deleting"
              pending={remove.isPending}
              onConfirm={() =>
                remove.mutate(schedule.id, {
                  onSuccess: () => {
                    setConfirming(false);
                    notify({ title: 'Schedule deleted' });
                  },
                  onError: (error) => notify({ title: messageOf(error, 'Could not delete it'), type: 'error' }),
                })
              }
            >
              {label} will not run again. Its past runs stay in Runs.
            </ConfirmDialog>
          </HStack>
        </Flex>

        <Text fontSize="sm">
          Next run:{' '}
          {schedule.nextRuns[0] ? runTimeText(schedule.nextRuns[0]) : <Badge colorPalette="gray">Paused</Badge>}
        </Text>
        <HStack fontSize="sm" gap="2" wrap="wrap" data-testid="schedule-last-run">
          <Text>Last run:</Text>
          {schedule.lastRun ? (
            <>
              <Link to={`/runs?id=${encodeURIComponent(schedule.lastRun.id)}`}>
                <Text as="span" color="fg.info" textDecoration="underline">
                  {runTimeText(schedule.lastRun.at)}
                </Text>
              </Link>
              {schedule.lastRun.status && <RunStatusBadge run={{ status: schedule.lastRun.status, limitHit: null }} />}
            </>
          ) : (
            <Text color="fg.muted">not yet</Text>
          )}
          {schedule.skippedCount > 0 && (
            <Badge colorPalette="orange" title="Due runs skipped because the previous run was still running">
              {schedule.skippedCount} skipped
            </Badge>
          )}
        </HStack>
        {schedule.lastError && (
          <Text fontSize="sm" color="fg.error" data-testid="schedule-last-error" wordBreak="break-word">
            Last error: {schedule.lastError}
          </Text>
        )}
      </Stack>
    </Box>
  );
}

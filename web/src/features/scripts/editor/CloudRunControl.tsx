import { Button, Group, Link, NativeSelect, Text } from '@chakra-ui/react';
import { Cloud } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  CLOUD_RUN_TEXT,
  CLOUD_TIMEOUT_CHOICES,
  CLOUD_TIMEOUT_DEFAULT,
  cloudReadiness,
  placeText,
  type CloudReadiness,
} from '../../../lib/cloud-run.ts';
import { useCloudPlace } from '../../../lib/cloud-place.ts';
import { useCan, type Can } from '../../../lib/team-access.ts';

/** Where the key and the place are set (the card scrolls into view when the address names it). */
export const CLOUD_SETTINGS_PATH = '/settings#open-cloud';

/**
 * Whether Run in Roblox can run, and on which place, as the server would decide it
 * (GET /api/open-cloud/place). Asked only where the role allows running in the game: without
 * runs.game the button is disabled for that, and the call would be refused.
 */
export function useCloudReadiness(): CloudReadiness {
  const runsGame = useCan('runs.game');
  const place = useCloudPlace(runsGame.allowed);
  return runsGame.allowed ? cloudReadiness(place.data) : { kind: 'unknown' };
}

interface Props {
  readiness: CloudReadiness;
  /** The member's role allows running in the game (the same permission runs in Roblox). */
  can: Can;
  /** Another run or a format is under way. */
  busy: boolean;
  /** This run's execute call is on its way. */
  loading: boolean;
  /** The id of the note that says why the button is disabled. */
  noteId: string;
  onRun(timeoutSeconds: number): void;
}

/**
 * Run in Roblox, naming the place it runs on, with the time limit Roblox gives the task beside it
 * (5 minutes, Roblox's own, unless a shorter one is chosen for a script that should end sooner).
 */
export function CloudRunButton({ readiness, can, busy, loading, noteId, onRun }: Props) {
  const [timeoutSeconds, setTimeoutSeconds] = useState<number>(CLOUD_TIMEOUT_DEFAULT);
  const blocked = readiness.kind === 'blocked';
  const label =
    readiness.kind === 'ready'
      ? `${CLOUD_RUN_TEXT.button} · ${placeText(readiness.placeId, readiness.placeVersion)}`
      : CLOUD_RUN_TEXT.button;
  return (
    <Group attached>
      <Button
        variant="outline"
        onClick={() => onRun(timeoutSeconds)}
        loading={loading}
        loadingText={CLOUD_RUN_TEXT.sending}
        disabled={busy || blocked || !can.allowed}
        title={can.reason ?? (blocked ? readiness.reason : 'Run the code on screen in Roblox, on a copy of your place')}
        aria-describedby={blocked || !can.allowed ? noteId : undefined}
        data-testid="run-in-roblox"
      >
        <Cloud size={16} /> {label}
      </Button>
      <NativeSelect.Root width="auto" disabled={blocked || !can.allowed}>
        <NativeSelect.Field
          aria-label={CLOUD_RUN_TEXT.timeoutLabel}
          title={CLOUD_RUN_TEXT.timeoutLabel}
          value={timeoutSeconds}
          onChange={(event) => setTimeoutSeconds(Number(event.target.value))}
          borderStartRadius="0"
          ms="-1px"
        >
          {CLOUD_TIMEOUT_CHOICES.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Group>
  );
}

/**
 * Why Run in Roblox is disabled, written out (a disabled button shows no tooltip on a touch screen
 * and a keyboard skips it): the permission a team member's role lacks, or what Settings still
 * needs, with the way there for whoever may change it (`manage`: the role has opencloud.manage).
 */
export function CloudRunNote({
  readiness,
  can,
  manage,
  noteId,
}: {
  readiness: CloudReadiness;
  can: Can;
  manage: boolean;
  noteId: string;
}) {
  if (!can.allowed) {
    return (
      // Read as one more line of the permission notes above it.
      <Text fontSize="sm" color="fg.muted" id={noteId} data-testid="cloud-run-note" mt="-5">
        {CLOUD_RUN_TEXT.button}: {can.reason}
      </Text>
    );
  }
  if (readiness.kind !== 'blocked') return null;
  return (
    // Close under the buttons, as the other notes about them.
    <Text fontSize="sm" color="fg.muted" id={noteId} data-testid="cloud-run-note" mt="-3">
      {readiness.reason}{' '}
      {manage ? (
        <Link asChild color="fg.info" variant="underline">
          <RouterLink to={CLOUD_SETTINGS_PATH}>{CLOUD_RUN_TEXT.settingsLink}</RouterLink>
        </Link>
      ) : (
        CLOUD_RUN_TEXT.askManager
      )}
    </Text>
  );
}

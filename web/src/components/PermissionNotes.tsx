import { Stack, Text } from '@chakra-ui/react';
import type { Can } from '../lib/team-access.ts';

interface Props {
  /** Each action on the screen with whether the member's role allows it. */
  notes: readonly { action: string; can: Can }[];
}

/**
 * Why some of a screen's buttons are disabled for a team member: one line per action their role
 * does not allow, naming the permission it needs. A disabled button shows no tooltip on a touch
 * screen (nor to a keyboard, which skips it), so the reason is written out. Nothing on the
 * person's own account, where every action is theirs.
 */
export function PermissionNotes({ notes }: Props) {
  const refused = notes.filter((note) => !note.can.allowed);
  if (refused.length === 0) return null;
  return (
    <Stack gap="0.5" data-testid="permission-notes">
      {refused.map((note) => (
        <Text key={note.action} fontSize="sm" color="fg.muted">
          {note.action}: {note.can.reason}
        </Text>
      ))}
    </Stack>
  );
}

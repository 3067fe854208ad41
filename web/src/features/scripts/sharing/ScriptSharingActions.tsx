import type { Script } from '@moonrelay/contract/scripts';
import { CopyToTeamDialog } from './CopyToTeamDialog.tsx';
import { ShareScriptDialog } from './ShareScriptDialog.tsx';

/**
 * The editor's actions on the saved script beside its own: Share (a read-only link) and Copy to
 * team. Nothing of theirs is fetched until one opens.
 */
export function ScriptSharingActions({ script }: { script: Script }) {
  return (
    <>
      <ShareScriptDialog script={script} />
      <CopyToTeamDialog script={script} />
    </>
  );
}

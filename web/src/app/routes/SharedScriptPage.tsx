import { useParams } from 'react-router-dom';
import { CopyToMyTeam } from '../../features/scripts/sharing/CopyToMyTeam.tsx';
import { SharedScriptScreen } from '../../features/scripts/sharing/SharedScriptScreen.tsx';

/** A shared script's link opened signed in: the script, and a copy of it for the team on screen. */
export default function SharedScriptPage() {
  const token = useParams().token ?? '';
  return <SharedScriptScreen token={token} action={<CopyToMyTeam token={token} />} />;
}

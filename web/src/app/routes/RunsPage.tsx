import { RunsScreen } from '../../features/runs/components/RunsScreen.tsx';
import { useScripts } from '../../features/scripts/api/scripts.ts';

const NO_SCRIPTS: never[] = [];

/** Runs: the user's run history. The script filter lists the scripts feature's scripts. */
export default function RunsPage() {
  const scripts = useScripts();
  return <RunsScreen scripts={scripts.data ?? NO_SCRIPTS} />;
}

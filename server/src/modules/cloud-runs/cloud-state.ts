import type { CloudRunState } from '@moonrelay/contract/cloud-runs';

/**
 * A cloud task's stored phase as the API tells it. 'ending' (Roblox finished the task; its last log
 * lines are still being read) is still running to the user: the run ends once its lines are in.
 */
export const publicState = (phase: string): CloudRunState => (phase === 'ending' ? 'running' : phase) as CloudRunState;

import type { Schedule } from '@moonrelay/contract/schedules';
import type { Db } from '../../db/database.ts';
import { actorOf, type Principal } from '../../http/context.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import { scriptsRepo } from '../scripts/scripts.repo.ts';
import { usersRepo } from '../users/users.repo.ts';

type ScheduleAction =
  typeof AUDIT_ACTIONS.scheduleCreated | typeof AUDIT_ACTIONS.scheduleChanged | typeof AUDIT_ACTIONS.scheduleDeleted;

/**
 * A schedule change in the team's activity log (docs/decisions/049, "Who did it"): a schedule runs
 * code as the member who last set it, so who set, changed, paused or deleted it, and what it does,
 * is what a team asks first when a script ran that nobody expected. The entry keeps the script's
 * name and the timing as they were, so it reads the same after either changes.
 */
export function createScheduleAudit(deps: { db: Db; audit: Pick<AuditService, 'record'> }) {
  const { db, audit } = deps;
  return async (principal: Principal, action: ScheduleAction, schedule: Schedule, changed?: readonly string[]) => {
    const actorId = actorOf(principal);
    const script = await scriptsRepo.findForUser(db, principal.userId, schedule.scriptId);
    await audit.record({
      actor: { id: actorId, name: await usersRepo.usernameOf(db, actorId) },
      action,
      targetType: 'schedule',
      targetId: schedule.id,
      teamId: principal.userId,
      details: {
        scriptId: schedule.scriptId,
        scriptName: script?.name ?? null,
        kind: schedule.kind,
        cron: schedule.cron,
        timeZone: schedule.timeZone,
        intervalSeconds: schedule.intervalSeconds,
        target: schedule.target,
        serverId: schedule.serverId,
        enabled: schedule.enabled,
        ...(changed ? { changed } : {}),
        ...(principal.kind === 'api-key' ? { keyName: principal.keyName } : {}),
      },
    });
  };
}

export type ScheduleAudit = ReturnType<typeof createScheduleAudit>;

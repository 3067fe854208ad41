import type { Db } from '../../db/database.ts';
import { actorOf, type Principal } from '../../http/context.ts';
import { usersRepo } from '../users/users.repo.ts';
import type { RunActor } from './executions.service.ts';

/**
 * Who a request's run is recorded under (docs/decisions/049, "Who did it"): the person acting (a
 * team's member, or the account's owner), by the name they have now, and the API key they called
 * with. The name is kept with the run, as a moderation action keeps its moderator's, so the Runs
 * page still says who it was after they leave the team.
 */
export async function runActorOf(db: Db, principal: Principal): Promise<RunActor> {
  const id = actorOf(principal);
  const name = await usersRepo.usernameOf(db, id);
  return { id, name, keyName: principal.kind === 'api-key' ? principal.keyName : null };
}

import type { Script } from '@moonrelay/contract/scripts';
import { signInAs, testScript } from '../../../test/fixtures.ts';

/** A stored script last modified three hours ago (the list shows relative times). */
export function makeScript(fields: Partial<Script> & Pick<Script, 'id' | 'name'>): Script {
  return testScript({ updatedAt: new Date(Date.now() - 3 * 3600 * 1000).toISOString(), ...fields });
}

/** A signed-in session: the scripts list is fetched only with a token. */
export function signIn(): void {
  signInAs();
}

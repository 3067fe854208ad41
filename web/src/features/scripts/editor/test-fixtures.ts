import type { Script } from '@moonrelay/contract/scripts';
import { testScript } from '../../../test/fixtures.ts';

/** The editor tests' script: 'Fly', with a description and code of its own. */
export function storedScript(overrides: Partial<Script> = {}): Script {
  return testScript({ name: 'Fly', description: 'Lets you fly', code: 'print("fly")', ...overrides });
}

import crypto from 'node:crypto';
import type { TempScriptResponse } from '@moonrelay/contract/catalogue';
import { CATALOGUE_ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { sha256Hex } from '../../security/digest.ts';
import type { ScriptTokens } from './script-tokens.ts';
import { tempScriptsRepo } from './temp-scripts.repo.ts';

/** The one-line loader a long script is saved or sent as (spec sections 4 and 7). */
export const loaderFor = (url: string) =>
  `loadstring(game:GetService("HttpService"):GetAsync(${JSON.stringify(url)}))()`;

/**
 * Long scripts: code longer than 10 000 characters is kept here and travels as a one-line loader
 * that fetches it by id with a script token (script-tokens.ts), so neither a saved script nor a
 * game command carries a megabyte, and the URL never carries the session token or the API key.
 */
export function createScriptLoaderService(deps: { db: Db; tokens: ScriptTokens }) {
  const { db, tokens } = deps;
  const invalidToken = () => new AppError(401, CATALOGUE_ERRORS.invalidScriptToken);
  const keptScriptGone = () => new AppError(404, CATALOGUE_ERRORS.keptScriptGone);

  return {
    async keep(userId: string, code: string, serverUrl: string): Promise<TempScriptResponse> {
      const apiKeyId = await tempScriptsRepo.currentApiKeyId(db, userId);
      if (!apiKeyId) throw new AppError(409, CATALOGUE_ERRORS.noApiKey);
      const row = await tempScriptsRepo.keep(db, {
        id: crypto.randomUUID(),
        userId,
        codeHash: sha256Hex(code),
        code,
        createdAt: nowIso(),
      });
      const { token, expiresAt } = await tokens.issue({ userId, scriptId: row.id, apiKeyId });
      const url = `${serverUrl}/api/scripts/load/${row.id}?key=${token}`;
      return { id: row.id, loadstring: loaderFor(url), url, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The kept code, for an unexpired token issued for this very script under the user's current
     * API key. A deleted script answers 404 whatever token is shown for it.
     */
    async load(id: string, token: string): Promise<string> {
      const check = await tokens.verify(token);
      if (!check.valid) throw check.expired ? new AppError(401, CATALOGUE_ERRORS.scriptTokenExpired) : invalidToken();
      const { claims } = check;
      if (claims.scriptId !== id) throw invalidToken();
      if ((await tempScriptsRepo.currentApiKeyId(db, claims.userId)) !== claims.apiKeyId) throw invalidToken();
      const code = await tempScriptsRepo.codeOf(db, claims.userId, id);
      if (code === undefined) throw keptScriptGone();
      return code;
    },

    /** Deletes the user's kept script, which revokes every loader URL issued for it. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await tempScriptsRepo.remove(db, userId, id))) throw keptScriptGone();
    },
  };
}

export type ScriptLoaderService = ReturnType<typeof createScriptLoaderService>;

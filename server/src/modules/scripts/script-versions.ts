import {
  SCRIPT_VERSION_ERRORS,
  SCRIPT_VERSIONS_KEPT,
  type ScriptVersion,
  type ScriptVersionList,
  type ScriptVersionOrigin,
} from '@moonrelay/contract/script-versions';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { scriptVersionsRepo, type ScriptVersionRow } from './script-versions.repo.ts';
import type { ScriptPatch, ScriptRow } from './scripts.repo.ts';

/** The fields a version keeps: what a save can change (the run count and times are not the script's content). */
export const VERSIONED_FIELDS = [
  'name',
  'description',
  'code',
  'isAutoExecute',
  'isPublic',
  'gameId',
  'gameName',
  'gameImageUrl',
  'autoExecuteGames',
] as const satisfies readonly (keyof ScriptRow & keyof ScriptVersionRow)[];

type VersionedContent = Pick<ScriptRow, (typeof VERSIONED_FIELDS)[number]>;
const contentOf = (row: VersionedContent): VersionedContent =>
  Object.fromEntries(VERSIONED_FIELDS.map((field) => [field, row[field]])) as VersionedContent;

/** Whether a patch changes any versioned field of the script as it stands. */
export function changesContent(current: ScriptRow, patch: ScriptPatch): boolean {
  return VERSIONED_FIELDS.some((field) => patch[field] !== undefined && patch[field] !== current[field]);
}

/** The patch that makes a script what a version was. */
export const patchOf = (version: ScriptVersionRow): ScriptPatch => contentOf(version);

/** Lines of code as an editor numbers them (one more than its newlines). */
function lineCount(code: string): number {
  let lines = 1;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** Who saved a version and how (a session, the API key, or a restore of an earlier one). */
export interface VersionOrigin {
  savedBy: string;
  via: ScriptVersionOrigin;
  restoredFrom?: number;
  /** The name of the API key the save was made with (a restore made with a key too). */
  keyName?: string | null;
}

/**
 * Keeps a script's versions: the script as it stands after a save that changed it, numbered by the
 * script's own `version` column (bumped in the save's UPDATE), the newest SCRIPT_VERSIONS_KEPT kept.
 * Call `record` inside the save's transaction so a script never has a version it did not save.
 */
export const scriptVersions = {
  async record(trx: Db, script: ScriptRow, origin: VersionOrigin): Promise<void> {
    await scriptVersionsRepo.insert(trx, {
      scriptId: script.id,
      number: script.version,
      ...contentOf(script),
      codeBytes: Buffer.byteLength(script.code, 'utf8'),
      lines: lineCount(script.code),
      savedBy: origin.savedBy,
      savedVia: origin.via,
      savedByKey: origin.keyName ?? null,
      restoredFrom: origin.restoredFrom ?? null,
      createdAt: script.updatedAt,
    });
    await scriptVersionsRepo.pruneBelow(trx, script.id, script.version - SCRIPT_VERSIONS_KEPT + 1);
  },

  async list(db: Db, script: ScriptRow): Promise<ScriptVersionList> {
    const rows = await scriptVersionsRepo.list(db, script.id);
    return {
      scriptId: script.id,
      current: script.version,
      items: rows.map((row) => ({
        number: row.number,
        name: row.name,
        savedBy: row.savedByName ?? null,
        savedVia: row.savedVia as ScriptVersionOrigin,
        savedByKey: row.savedByKey,
        restoredFrom: row.restoredFrom,
        codeBytes: Number(row.codeBytes),
        lines: Number(row.lines),
        current: row.number === script.version,
        createdAt: row.createdAt,
      })),
    };
  },

  /** One version; 404 for a number the script never had or has pruned. */
  async find(db: Db, script: ScriptRow, number: number) {
    const row = await scriptVersionsRepo.find(db, script.id, number);
    if (!row) throw new AppError(404, SCRIPT_VERSION_ERRORS.notFound);
    return row;
  },

  toVersion(script: ScriptRow, row: ScriptVersionRow & { savedByName: string | null }): ScriptVersion {
    return {
      scriptId: row.scriptId,
      number: row.number,
      name: row.name,
      description: row.description,
      code: row.code,
      isAutoExecute: row.isAutoExecute === 1,
      isPublic: row.isPublic === 1,
      gameId: row.gameId,
      gameName: row.gameName,
      gameImageUrl: row.gameImageUrl,
      autoExecuteGames: row.autoExecuteGames ? JSON.parse(row.autoExecuteGames) : null,
      savedBy: row.savedByName,
      savedVia: row.savedVia as ScriptVersionOrigin,
      savedByKey: row.savedByKey,
      restoredFrom: row.restoredFrom,
      codeBytes: Number(row.codeBytes),
      lines: Number(row.lines),
      current: row.number === script.version,
      createdAt: row.createdAt,
    };
  },
};

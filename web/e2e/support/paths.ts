import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the folders the browser tests read or write. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const WEB_DIST_DIR = path.join(REPO_ROOT, 'web/dist');
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'screenshots');

import packageJson from '../package.json' with { type: 'json' };

/** The version of this moonrelay, from its package.json. */
export const version: string = packageJson.version;

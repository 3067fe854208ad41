/** The system's Chromium (Debian's package: the network here reaches no browser download). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a headless Chromium on a closed network, as root: without the background-networking
 * ones it keeps trying to reach Google's hosts.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

import { TWO_FACTOR } from '@moonrelay/contract/messages';

/**
 * The browser's passkey calls (navigator.credentials.create/get through @simplewebauthn/browser),
 * loaded when first used so the sign-in page does not carry them for accounts without a passkey.
 * A cancelled or timed-out prompt becomes an Error that says so.
 */
async function browserCall<T>(call: (lib: typeof import('@simplewebauthn/browser')) => Promise<T>): Promise<T> {
  const lib = await import('@simplewebauthn/browser');
  if (!lib.browserSupportsWebAuthn()) throw new Error(TWO_FACTOR.passkeyUnsupported);
  try {
    return await call(lib);
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
      throw new Error(TWO_FACTOR.passkeyCancelled);
    }
    throw error;
  }
}

/** Creates a passkey for these registration options; answers the credential as JSON for the server. */
export const createPasskey = (options: Record<string, unknown>) =>
  browserCall((lib) =>
    lib.startRegistration({
      optionsJSON: options as unknown as Parameters<typeof lib.startRegistration>[0]['optionsJSON'],
    }),
  );

/** Signs these sign-in options with one of the passkeys they name; answers the credential as JSON. */
export const signWithPasskey = (options: Record<string, unknown>) =>
  browserCall((lib) =>
    lib.startAuthentication({
      optionsJSON: options as unknown as Parameters<typeof lib.startAuthentication>[0]['optionsJSON'],
    }),
  );

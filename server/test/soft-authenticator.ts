import crypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software, for the API tests: it answers WebAuthn registration and
 * sign-in options as a browser with a platform authenticator would (a P-256 key, attestation
 * "none", a signature counter that moves forward), so the server's checks run on real signatures.
 * The browser tests use Chromium's own virtual authenticator instead.
 */
export interface SoftPasskey {
  credentialId: string;
  counter: number;
}

const b64 = (bytes: Uint8Array<ArrayBuffer>) => isoBase64URL.fromBuffer(bytes);
const sha256 = (data: Uint8Array | string) => new Uint8Array(crypto.createHash('sha256').update(data).digest());

function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export function createSoftAuthenticator() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialIdBytes = new Uint8Array(crypto.randomBytes(32));
  const credentialId = b64(credentialIdBytes);
  let counter = 0;
  /** The account's user handle, as the registration options named it (base64url). */
  let userHandle: string | undefined;

  const cosePublicKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]),
  );

  const clientData = (type: string, challenge: string, origin: string) =>
    new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentialId,
    get counter() {
      return counter;
    },

    /** The answer of navigator.credentials.create() to these options, as PublicKeyCredential.toJSON(). */
    register(options: Record<string, unknown>, origin: string) {
      const rpId = (options.rp as { id: string }).id;
      userHandle = (options.user as { id?: string } | undefined)?.id;
      const authData = concat(
        sha256(rpId),
        new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA]),
        u32(counter),
        new Uint8Array(16), // AAGUID: none
        new Uint8Array([0, credentialIdBytes.length]),
        credentialIdBytes,
        cosePublicKey,
      );
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, never>>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, never>()],
          ['authData', authData],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge as string, origin)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      };
    },

    /**
     * The answer of navigator.credentials.get() to these options, with the user handle a
     * discoverable passkey carries; the counter moves forward by one unless `counterAt` pins it (a
     * cloned authenticator's stale counter). `userVerified: false` is a touch without PIN or biometric.
     */
    signIn(
      options: Record<string, unknown>,
      origin: string,
      counterAt?: number,
      extra: { userVerified?: boolean; userHandle?: string } = {},
    ) {
      counter = counterAt ?? counter + 1;
      const flags = FLAG_USER_PRESENT | (extra.userVerified === false ? 0 : FLAG_USER_VERIFIED);
      const authData = concat(sha256(options.rpId as string), new Uint8Array([flags]), u32(counter));
      const clientDataJSON = clientData('webauthn.get', options.challenge as string, origin);
      const signature = crypto.sign('sha256', concat(authData, sha256(clientDataJSON)), privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64(clientDataJSON),
          authenticatorData: b64(authData),
          signature: b64(new Uint8Array(signature)),
          ...((extra.userHandle ?? userHandle) ? { userHandle: extra.userHandle ?? userHandle } : {}),
        },
      };
    },
  };
}

export type SoftAuthenticator = ReturnType<typeof createSoftAuthenticator>;

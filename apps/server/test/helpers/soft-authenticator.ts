/**
 * A passkey in software, for HTTP tests: a P-256 key pair that answers WebAuthn's registration
 * (attestation `none`) and authentication ceremonies the way a browser's authenticator would,
 * for a given origin. The browser tests use Chromium's own virtual authenticator instead.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;

  /** `counts`: false for an authenticator whose signature counter stays 0 (most synced passkeys). */
  constructor(
    private readonly origin: string,
    private readonly counts = true,
  ) {}

  get id() {
    return b64url(this.credentialId);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The answer to `navigator.credentials.create` for the server's options. */
  register(options: { challenge: string; rp: { id?: string } }, origin = this.origin) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
      [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    // Flags: user present, user verified, attested credential data.
    const authData = this.authenticatorData(options.rp.id ?? '', 0x01 | 0x04 | 0x40, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The answer to `navigator.credentials.get`: the challenge signed with the private key. */
  authenticate(options: { challenge: string; rpId?: string }, origin = this.origin) {
    if (this.counts) this.counter += 1;
    const authData = this.authenticatorData(options.rpId ?? '', 0x01 | 0x04);
    const clientData = this.clientData('webauthn.get', options.challenge, origin);
    const signature = createSign('sha256')
      .update(Buffer.concat([authData, sha256(clientData)]))
      .sign(this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    };
  }

  /** Sets the signature counter back, as a cloned authenticator would show it. */
  rewind() {
    this.counter = 0;
  }
}

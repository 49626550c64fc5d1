/**
 * Scale-out's cryptography (node:crypto only): every replica and every
 * primary boot has an Ed25519 key pair to sign what it publishes, and every
 * replica an X25519 key pair that control requests are sealed to
 * (ephemeral-static ECDH, HKDF-SHA256, AES-256-GCM). Keys live in memory for
 * the life of the process: a restarted replica or primary is a new identity.
 * Public keys travel as base64url of their 32 raw bytes.
 *
 * A signed message is the 64-byte signature followed by the bytes it signs.
 */
import { createCipheriv, createDecipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

const SIG_BYTES = 64;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const rawPublic = (k: KeyObject): string => k.export({ format: 'jwk' }).x!;

function importPublic(crv: 'Ed25519' | 'X25519', x: unknown): KeyObject | null {
  if (typeof x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x)) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv, x }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** A short name of a signing key (base64url, subject-safe): what logs, subjects and the replica list show. */
export const fingerprint = (signPub: string): string => createHash('sha256').update(Buffer.from(signPub, 'base64url')).digest('base64url').slice(0, 22);

/** An Ed25519 key pair that signs. */
export class Signer {
  readonly pub: string;
  readonly fp: string;
  private constructor(private readonly key: KeyObject, pub: KeyObject) {
    this.pub = rawPublic(pub);
    this.fp = fingerprint(this.pub);
  }

  static generate(): Signer {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return new Signer(privateKey, publicKey);
  }

  /** The signature, then the body. */
  sign(body: Uint8Array): Uint8Array {
    const out = new Uint8Array(SIG_BYTES + body.length);
    out.set(sign(null, body, this.key), 0);
    out.set(body, SIG_BYTES);
    return out;
  }
}

/** The key that checks a signer's signatures, from its public key (null when it is not one). */
export const verifierOf = (signPub: unknown): KeyObject | null => importPublic('Ed25519', signPub);

/** The body of a signed message, without checking its signature (null when it is too short to be one). */
export const signedBody = (msg: Uint8Array): Uint8Array | null => (msg.length > SIG_BYTES ? msg.subarray(SIG_BYTES) : null);

/** Does `key` sign this message? */
export const signedBy = (msg: Uint8Array, key: KeyObject): boolean => msg.length > SIG_BYTES && verify(null, msg.subarray(SIG_BYTES), key, msg.subarray(0, SIG_BYTES));

/** A payload sealed to one X25519 key: the sender's ephemeral public key, the GCM nonce, ciphertext + tag (base64url). */
export interface Sealed {
  epk: string;
  iv: string;
  ct: string;
}

/** The AES key of one sealed payload: both public keys and the context are bound into it. */
function sealKey(shared: Buffer, epk: string, to: string, context: string): Buffer {
  const salt = Buffer.concat([Buffer.from(epk, 'base64url'), Buffer.from(to, 'base64url')]);
  return Buffer.from(hkdfSync('sha256', shared, salt, `sledge seal v1\n${context}`, 32));
}

/** Seal `plain` to the holder of the X25519 public key `to`; `context` (authenticated, not sent) must be given again to open it. */
export function seal(to: string, plain: Uint8Array, context: string): Sealed {
  const recipient = importPublic('X25519', to);
  if (!recipient) throw new Error('not an X25519 public key');
  const eph = generateKeyPairSync('x25519');
  const epk = rawPublic(eph.publicKey);
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv('aes-256-gcm', sealKey(diffieHellman({ privateKey: eph.privateKey, publicKey: recipient }), epk, to, context), iv);
  c.setAAD(Buffer.from(context));
  const ct = Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
  return { epk, iv: iv.toString('base64url'), ct: ct.toString('base64url') };
}

/** An X25519 key pair that opens what was sealed to it. */
export class Opener {
  readonly pub: string;
  private constructor(private readonly key: KeyObject, pub: KeyObject) {
    this.pub = rawPublic(pub);
  }

  static generate(): Opener {
    const { privateKey, publicKey } = generateKeyPairSync('x25519');
    return new Opener(privateKey, publicKey);
  }

  /** The plaintext, or null when it was not sealed to this key with this context (or was altered). */
  open(s: Sealed, context: string): Uint8Array | null {
    try {
      const epk = importPublic('X25519', s.epk);
      if (!epk || typeof s.iv !== 'string' || typeof s.ct !== 'string') return null;
      const iv = Buffer.from(s.iv, 'base64url');
      const ct = Buffer.from(s.ct, 'base64url');
      if (iv.length !== IV_BYTES || ct.length < TAG_BYTES) return null;
      const d = createDecipheriv('aes-256-gcm', sealKey(diffieHellman({ privateKey: this.key, publicKey: epk }), s.epk, this.pub, context), iv);
      d.setAAD(Buffer.from(context));
      d.setAuthTag(ct.subarray(ct.length - TAG_BYTES));
      return Buffer.concat([d.update(ct.subarray(0, ct.length - TAG_BYTES)), d.final()]);
    } catch {
      return null;
    }
  }
}

/** A replica's identity: its signing and sealing key pairs. */
export interface Identity {
  signer: Signer;
  opener: Opener;
}

export const newIdentity = (): Identity => ({ signer: Signer.generate(), opener: Opener.generate() });

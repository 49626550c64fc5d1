import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { SledgeError } from '@sledge/protocol';
import { makePrivate } from './fsutil.js';

/** Prefix of an encrypted value as stored: sledge-enc:v1:<base64 of iv(12) | tag(16) | ciphertext>. */
export const SEALED_PREFIX = 'sledge-enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Where the key came from, for messages (never the key itself). */
export type KeySource = { kind: 'env' } | { kind: 'file'; path: string; created: boolean };

/** The key is malformed (wrong length, not base64): the store refuses to open. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

function decodeKey(text: string, where: string): Buffer {
  const t = text.trim();
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(t) ? Buffer.from(t, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyError(`${where} must hold ${KEY_BYTES} random bytes in base64 (44 characters, e.g. from \`openssl rand -base64 32\`); it holds ${key.length ? `${key.length} bytes` : 'no valid base64'}`);
  }
  return key;
}

/**
 * The key that encrypts saved secrets: SLEDGE_SECRET_KEY (base64, 32 bytes)
 * when given, else the key file (created owner-only with a random key on
 * first use). The key is never in the store file, so the store alone
 * reveals no secret.
 */
export function loadSecretKey(opts: { key?: string; keyFile: string }): { key: Buffer; source: KeySource } {
  if (opts.key !== undefined) return { key: decodeKey(opts.key, 'SLEDGE_SECRET_KEY'), source: { kind: 'env' } };
  if (existsSync(opts.keyFile)) {
    makePrivate([opts.keyFile]);
    return { key: decodeKey(readFileSync(opts.keyFile, 'utf8'), `the key file ${opts.keyFile}`), source: { kind: 'file', path: opts.keyFile, created: false } };
  }
  const key = randomBytes(KEY_BYTES);
  const fd = openSync(opts.keyFile, 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
  } finally {
    closeSync(fd);
  }
  makePrivate([opts.keyFile]);
  return { key, source: { kind: 'file', path: opts.keyFile, created: true } };
}

export const isSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith(SEALED_PREFIX);

/** AES-256-GCM over one value; `label` (the field name) is authenticated so a value cannot be moved to another field. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new SecretKeyError(`the secret key must be ${KEY_BYTES} bytes`);
  }

  seal(plain: string, label: string): string {
    const iv = randomBytes(IV_BYTES);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(label, 'utf8'));
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
  }

  /** The plain value, or SLEDGE_E_SECRET_UNREADABLE on `field` when the key does not open it. */
  open(sealed: string, label: string, field: string): string {
    try {
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
      const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      d.setAAD(Buffer.from(label, 'utf8'));
      d.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([d.update(raw.subarray(IV_BYTES + TAG_BYTES)), d.final()]).toString('utf8');
    } catch (e) {
      throw new SledgeError(
        'SLEDGE_E_SECRET_UNREADABLE',
        `the saved ${field} cannot be decrypted: the key that encrypted it (SLEDGE_SECRET_KEY or the data directory's secret.key) is not the one in use. Type the secret again (and save the configuration to store it under the current key)`,
        { field, cause: e },
      );
    }
  }
}

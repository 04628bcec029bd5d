// Secrets the service must read back to use (a webhook's signing secret: a hash cannot sign) are
// stored sealed: AES-256-GCM under a key that is not in the database, so a dump, a backup or a
// read-only SQL user of ClickHouse yields no secret. The key is STRESS_GATE_SECRETS_KEY, else a
// key file created on first start beside the data directory, never inside it
// (docs/security.md, "Secrets at rest").
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Seals and opens secrets with one key. */
export interface SecretBox {
  /** `sgs1:` and base64url of IV (12 bytes), tag (16) and ciphertext. */
  seal(plain: string): string;
  /** The plain secret; a value stored before sealing existed is returned as it is. Throws SecretUnreadableError. */
  open(stored: string): string;
  /** Where the key came from, for the start-up log (never the key). */
  readonly source: string;
}

/** A stored secret this server's key cannot open. */
export class SecretUnreadableError extends Error {}

const PREFIX = 'sgs1:';
const AAD = Buffer.from('stress-gate secret v1');

/** A box over a 32-byte key. */
export function secretBox(key: Buffer, source: string): SecretBox {
  if (key.length !== 32) throw new Error(`a secrets key is 32 bytes, not ${key.length}`);
  return {
    source,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(AAD);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(AAD).setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError(`sealed with another key than this server's (${source}): start the server with the key it was sealed with (STRESS_GATE_SECRETS_KEY or its key file)`);
      }
    },
  };
}

/**
 * A key of this process only: what a Database gets when nobody configured one (tests, tools that
 * never read a secret back). Secrets sealed with it cannot be opened after the process ends.
 */
export function ephemeralSecretBox(): SecretBox {
  return secretBox(randomBytes(32), 'a key of this process only');
}

/** `/data/stress-gate/chdb` → `/data/stress-gate/chdb.secrets.key`: beside the data directory, not in it. */
export function defaultKeyFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.secrets.key`;
}

/**
 * The configured box: `key` (64 hex characters) when set, else the key in `keyFile`, created
 * (mode 0600, 32 random bytes as hex) when it does not exist yet.
 */
export function loadSecretBox(options: { key?: string | undefined; keyFile: string }): SecretBox {
  if (options.key !== undefined) return secretBox(Buffer.from(options.key, 'hex'), 'STRESS_GATE_SECRETS_KEY');
  const file = options.keyFile;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      // 'wx': a server starting at the same moment keeps the key the other wrote.
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
    }
    text = readFileSync(file, 'utf8');
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file}: a secrets key file holds 64 hexadecimal characters (32 bytes)`);
  return secretBox(Buffer.from(hex, 'hex'), file);
}

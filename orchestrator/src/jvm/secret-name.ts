// Which environment variables hold secrets, and how a repetition JVM names their values without
// writing them: the SHA-256 of the value (its `jvm` line is kept in the project's build folder,
// which CI jobs archive). The runner jar has the same pattern (JvmJson.SECRET_NAME).
import { createHash } from 'node:crypto';

/** Names whose values are secrets: a difference is said, never its value. */
export const SECRET_NAME = /TOKEN|SECRET|PASSW|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE|AUTH|SESSION|COOKIE|JWT/i;

/** The fingerprint a repetition JVM writes for a secret value: the SHA-256 of its UTF-8 bytes, hex. */
export function secretFingerprint(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

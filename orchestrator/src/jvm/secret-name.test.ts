import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECRET_NAME, secretFingerprint } from './secret-name.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('secret names', () => {
  it('are the same pattern in the runner jar that fingerprints them', async () => {
    const java = await readFile(path.join(here, '../../jvm-runner/src/main/java/dev/stressgate/jvm/fork/JvmJson.java'), 'utf8');
    const javaPattern = /SECRET_NAME = Pattern\.compile\("([^"]+)", Pattern\.CASE_INSENSITIVE\)/.exec(java)?.[1];
    expect(javaPattern).toBe(SECRET_NAME.source);
    expect(SECRET_NAME.flags).toBe('i');
  });

  it('cover the usual spellings, and not ordinary settings', () => {
    for (const name of ['GITHUB_TOKEN', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'STRIPE_API_KEY', 'sonar.login.auth', 'GPG_PRIVATE_KEY']) expect(SECRET_NAME.test(name)).toBe(true);
    for (const name of ['PATH', 'HOME', 'JAVA_HOME', 'SHOP_ENV', 'LANG']) expect(SECRET_NAME.test(name)).toBe(false);
  });

  it('fingerprints a value as the SHA-256 of its UTF-8 bytes', () => {
    expect(secretFingerprint('hunter2')).toBe('f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7');
    expect(secretFingerprint('é')).toBe(secretFingerprint('\u00e9'));
  });
});

import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultKeyFile, ephemeralSecretBox, loadSecretBox, secretBox, SecretUnreadableError } from './secret-box.js';

describe('the secret box', () => {
  it('seals a secret so that the stored text holds nothing of it, and opens it again', () => {
    const box = ephemeralSecretBox();
    const sealed = box.seal('whsec-the-receivers-secret');
    expect(sealed).toMatch(/^sgs1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec');
    expect(box.seal('whsec-the-receivers-secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec-the-receivers-secret');
  });

  it('opens a secret stored before sealing existed as it is, and refuses one sealed with another key', () => {
    const box = ephemeralSecretBox();
    expect(box.open('plain-old-secret')).toBe('plain-old-secret');
    const other = ephemeralSecretBox().seal('x');
    expect(() => box.open(other)).toThrow(SecretUnreadableError);
    const tampered = box.seal('abc').slice(0, -2) + 'AA';
    expect(() => box.open(tampered)).toThrow(/sealed with another key/);
  });

  it('takes its key from the setting, else from a key file beside the data directory that it creates once, private', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'secret-box-'));
    const keyFile = defaultKeyFile(path.join(dir, 'chdb'));
    expect(keyFile).toBe(path.join(dir, 'chdb.secrets.key'));
    const first = loadSecretBox({ keyFile });
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const sealed = first.seal('s');
    expect(loadSecretBox({ keyFile }).open(sealed)).toBe('s');
    const hex = (await readFile(keyFile, 'utf8')).trim();
    expect(loadSecretBox({ key: hex, keyFile: '/nonexistent' }).open(sealed)).toBe('s');
    await writeFile(keyFile, 'not a key');
    expect(() => loadSecretBox({ keyFile })).toThrow(/64 hexadecimal characters/);
    expect(() => secretBox(Buffer.alloc(16), 'short')).toThrow(/32 bytes/);
  });
});

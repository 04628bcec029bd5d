// The Maven equivalent of the `stressNewTests { }` block: `.mvn/stress-gate.properties` in the
// reactor root, beside Maven's own `.mvn/maven.config` and `.mvn/jvm.config`. Keys: mode,
// serverUrl, project, requestTimeoutSeconds. Flag > environment > this file, as for Gradle.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlockSettings } from '../config/config.js';

/** The file's path in a reactor root. */
export function settingsFile(projectDir: string): string {
  return path.join(projectDir, '.mvn', 'stress-gate.properties');
}

/** Pure: parses `key=value` / `key: value` lines (Java properties, without continuations); `#` and `!` start comments. */
export function parseSettings(text: string): { settings: BlockSettings; problems: string[] } {
  const settings: BlockSettings = {};
  const problems: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'mode' || key === 'serverUrl' || key === 'project') settings[key] = value;
    else if (key === 'requestTimeoutSeconds') settings.requestTimeoutSeconds = value.trim() === '' ? null : Number(value);
    else if (key === 'token') problems.push('token: never read from a file in the repository; use STRESS_GATE_TOKEN');
    else problems.push(`${key}: unknown setting (expected mode, serverUrl, project or requestTimeoutSeconds)`);
  }
  return { settings, problems };
}

/** Reads the file; absent means no settings. */
export async function readSettings(projectDir: string): Promise<{ settings: BlockSettings; problems: string[] }> {
  const text = await readFile(settingsFile(projectDir), 'utf8').catch(() => null);
  return text === null ? { settings: {}, problems: [] } : parseSettings(text);
}

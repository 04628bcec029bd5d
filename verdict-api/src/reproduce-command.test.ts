import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { reproduceCommand, reproduceWords, selectorOf, shellWord } from './reproduce-command.js';

const SHELLS = ['sh', 'bash', 'dash', 'zsh', 'fish'] as const;

/** Words that break naive quoting in one shell or another. */
const HOSTILE = [
  "it's",
  'back\\slash',
  "\\'",
  "a\\'b",
  '\\\\',
  "'",
  "''",
  '\\',
  'ends with \\',
  "ends with '",
  '$HOME ${x} $(id) `id`',
  '"double" quotes',
  'tab\there',
  'line\nbreak',
  '\r\n',
  '!history !! ^x^y',
  '%self',
  '=ls',
  '~root',
  '*.java ? [a] {a,b}',
  'a;b|c&d<e>f',
  '# not a comment',
  'größe ✓ 𝄞 日本',
  '-n',
  '--',
  '',
  ' ',
  'adds(int, int)[3]: 1 + 1 = "2" \\ \'x\'',
];

/** What `shell` hands a command for the words as printed (each word NUL-terminated). */
function roundTrip(shell: string, words: readonly string[]): string[] {
  const line = `/usr/bin/printf ${shellWord('%s\\0')} ${words.map(shellWord).join(' ')}`;
  const out = execFileSync(shell, ['-c', line], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent', LANG: 'C.UTF-8' } });
  return out.split('\0').slice(0, -1);
}

describe('shell words', () => {
  it.each(SHELLS)('read back word for word by %s', (shell) => {
    expect(roundTrip(shell, HOSTILE)).toEqual(HOSTILE);
  });

  it('leave plain words bare and never put a backslash or a quote inside single quotes', () => {
    expect(['gradle', '--stress-tests', '-Pa.b=c', ':app', '@stress-gate/orchestrator@0.1.0', '--'].map(shellWord)).toEqual([
      'gradle', '--stress-tests', '-Pa.b=c', ':app', '@stress-gate/orchestrator@0.1.0', '--',
    ]);
    for (const w of HOSTILE) {
      for (const quoted of shellWord(w).match(/'[^']*'/g) ?? []) expect(quoted).not.toMatch(/\\/);
    }
  });
});

describe('the reproduce command', () => {
  const parts = { launcher: { kind: 'package', version: '0.1.0' }, tool: ['gradle'], buildArgs: ["-Pgreeting=it's \\n", 'test'], repetitions: 50 } as const;
  const id = { module: ':app', suite: "shop.Check'out$Test", name: 'adds[1: "a\\b" `x`]\n*' };

  it('is the launcher, the tool, the test and the repetitions, then -- and the build arguments', () => {
    expect(reproduceWords(parts, id)).toEqual([
      'npx', '-p', '@stress-gate/orchestrator@0.1.0', 'stress-orchestrator', 'gradle',
      '--stress-tests', selectorOf(id), '--repetitions', '50', '--', "-Pgreeting=it's \\n", 'test',
    ]);
    expect(reproduceWords({ ...parts, launcher: { kind: 'local' }, buildArgs: [] }, id).slice(0, 3)).toEqual(['npx', '--no', 'stress-orchestrator']);
  });

  it('stays on one line: a control character in a name becomes *, as does white space at either end', () => {
    expect(selectorOf(id)).toBe(":app shop.Check'out$Test.adds[1: \"a\\\\b\" `x`]*\\*");
    expect(selectorOf({ module: ':', suite: ' a.B', name: 'padded ' })).toBe('*a.B.padded*');
    expect(reproduceCommand(parts, id)).not.toMatch(/[\n\r]/);
  });

  it.each(SHELLS)('reads back as its words in %s', (shell) => {
    const words = reproduceWords(parts, id);
    const line = `/usr/bin/printf ${shellWord('%s\\0')} ${reproduceCommand(parts, id)}`;
    expect(execFileSync(shell, ['-c', line], { encoding: 'utf8' }).split('\0').slice(0, -1)).toEqual(words);
  });
});

import { describe, expect, it } from '@jest/globals';
import { parseArgs } from './parse-args.js';
import { stressPassArgs } from '../gradle/stress-pass-args.js';

describe('parseArgs', () => {
  it('picks tool options out from anywhere before -- and keeps Gradle arguments in order', () => {
    const parsed = parseArgs([
      'gradle', '--offline', 'test', '--stress-new-tests', 'report', '-Pk=v', '--server-url=https://x.example', ':app:check', '--project', 'shop',
      '--info', '--report-file', 'r.json', '--project-dir', 'sub', '--token', 't',
    ]);
    expect(parsed).toEqual({
      kind: 'gradle',
      flags: { mode: 'report', serverUrl: 'https://x.example', project: 'shop', reportFile: 'r.json', projectDir: 'sub', token: 't' },
      buildArgs: ['--offline', 'test', '-Pk=v', ':app:check', '--info'],
    });
  });

  it('passes everything after -- verbatim, tool option names included', () => {
    const parsed = parseArgs(['gradle', 'test', '--stress-new-tests=enforce', '--', '--project', 'x', '--stress-new-tests', 'off', '--help']);
    expect(parsed).toEqual({
      kind: 'gradle',
      flags: { mode: 'enforce' },
      buildArgs: ['test', '--project', 'x', '--stress-new-tests', 'off', '--help'],
    });
  });

  it('takes mvn (the mvn on PATH) and ./mvnw (the project\'s wrapper) as the Maven build, with the same option handling', () => {
    expect(parseArgs(['mvn', '-B', 'verify', '--stress-new-tests', 'enforce', '-pl', 'core', '--', '--project', 'x'])).toEqual({
      kind: 'maven',
      flags: { mode: 'enforce' },
      buildArgs: ['-B', 'verify', '-pl', 'core', '--project', 'x'],
      executable: 'mvn',
    });
    expect(parseArgs(['mvn', 'test', '--maven-executable', '/opt/maven/bin/mvn'])).toMatchObject({ kind: 'maven', executable: 'mvn', flags: { mavenExecutable: '/opt/maven/bin/mvn' } });
    expect(parseArgs(['./mvnw', 'test'])).toMatchObject({ kind: 'maven', executable: './mvnw' });
  });

  it('answers --help and --version', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['gradle', 'test', '--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['--version'])).toEqual({ kind: 'version' });
  });

  it('rejects an unknown command, a missing one and an option without its value', () => {
    expect(() => parseArgs(['ant', 'test'])).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('unknown command "ant"') }));
    expect(() => parseArgs([])).toThrow(expect.objectContaining({ code: 'USAGE' }));
    expect(() => parseArgs(['gradle', 'test', '--stress-new-tests'])).toThrow('--stress-new-tests needs a value');
    expect(() => parseArgs(['gradle', '--server-url', '--', 'x'])).toThrow('--server-url needs a value');
  });

  it('leaves Gradle options that merely look similar alone', () => {
    const parsed = parseArgs(['gradle', '--project-cache-dir', 'c', '-p', 'dir', '--projectx']);
    expect(parsed).toMatchObject({ flags: {}, buildArgs: ['--project-cache-dir', 'c', '-p', 'dir', '--projectx'] });
  });
});

describe('stressPassArgs', () => {
  it('removes task names and keeps flags and the values of value-taking options', () => {
    expect(
      stressPassArgs([
        '--offline', 'clean', ':app:test', '-Pk=v', '-Dx=y', '--info', '-p', 'sub', '-b', 'b.gradle', '-c', 's.gradle', '-I', 'i.gradle',
        '-x', 'lint', '--init-script', 'j.gradle', '--project-dir', 'd', '--build-file', 'f', '--settings-file', 'g',
        '--gradle-user-home', '/h', '--max-workers', '2', 'check',
      ]),
    ).toEqual([
      '--offline', '-Pk=v', '-Dx=y', '--info', '-p', 'sub', '-b', 'b.gradle', '-c', 's.gradle', '-I', 'i.gradle', '-x', 'lint',
      '--init-script', 'j.gradle', '--project-dir', 'd', '--build-file', 'f', '--settings-file', 'g', '--gradle-user-home', '/h',
      '--max-workers', '2',
    ]);
  });

  it('drops task options (--tests and its value) and options that would rebuild or dry-run', () => {
    expect(stressPassArgs(['test', '--tests', 'com.x.*', '--tests=Foo', '--rerun-tasks', '--continuous', '--dry-run', '--fail-fast', '--scan'])).toEqual([
      '-q',
      '--scan',
    ]);
  });

  it('keeps --max-workers=2 style options whole', () => {
    expect(stressPassArgs(['--max-workers=2', 'test', '--console=plain'])).toEqual(['-q', '--max-workers=2', '--console=plain']);
    expect(stressPassArgs(['-i', 'test'])).toEqual(['-i']);
  });
});

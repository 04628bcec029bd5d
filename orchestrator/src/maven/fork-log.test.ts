import { describe, expect, it } from '@jest/globals';
import { crashedTests, identityName, parseForkLog, platformCases } from './fork-log.js';

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const t = (uniqueId: string, legacyName: string, className = 'com.x.ATest') => ({ uniqueId, legacyName, className, displayName: `"${legacyName}" 🎉` });

describe('fork logs', () => {
  it('reads the fork line, started and finished tests, and counts malformed lines', () => {
    const text = [
      line({ event: 'fork', javaHome: '/jdk', userDir: '/m', basedir: '/m', testClassPath: 'a:b', launcherJar: '', inputArguments: ['-Xmx1g'], systemProperties: {}, environment: {}, configurationParameters: {} }),
      line({ event: 'started', ...t('u1', 'a()') }),
      line({ event: 'finished', ...t('u1', 'a()'), result: 'SUCCESS', durationMs: 4 }),
      line({ event: 'started', ...t('u2', 'b(int)[1]') }),
      '{not json',
      line({ event: 'finished', uniqueId: 'u3' }),
    ].join('\n');
    const log = parseForkLog(text, 'f.jsonl');
    expect(log.config).toMatchObject({ javaHome: '/jdk', inputArguments: ['-Xmx1g'] });
    expect(log.finished).toEqual([{ ...t('u1', 'a()'), status: 'success', durationMs: 4 }]);
    expect(log.malformed).toBe(2);
    expect(crashedTests(log).map((x) => x.uniqueId)).toEqual(['u2']);
  });

  it('names a test as Surefire\'s XML does by default: no () for a plain method, the invocation index otherwise', () => {
    expect(identityName('adds()')).toBe('adds');
    expect(identityName('adds(int, int)[3]')).toBe('adds(int, int)[3]');
    expect(identityName('greetsEach()[1][2]')).toBe('greetsEach()[1][2]');
    expect(identityName('größe()')).toBe('größe');
  });

  it('folds the build\'s own reruns of one unique ID into one case with its executions', () => {
    const r = (id: string, status: 'success' | 'failure', durationMs = 1) => ({ ...t(id, 'f()'), status, durationMs });
    const cases = platformCases([r('u1', 'failure', 5), r('u2', 'success'), r('u1', 'success', 7), r('u3', 'failure', 2), r('u3', 'failure', 3)]);
    expect(cases).toEqual([
      { uniqueId: 'u1', suite: 'com.x.ATest', name: 'f', status: 'success', durationMs: 7, executions: [{ status: 'failure', durationMs: 5 }, { status: 'success', durationMs: 7 }] },
      { uniqueId: 'u2', suite: 'com.x.ATest', name: 'f', status: 'success', durationMs: 1 },
      { uniqueId: 'u3', suite: 'com.x.ATest', name: 'f', status: 'failure', durationMs: 2, executions: [{ status: 'failure', durationMs: 2 }, { status: 'failure', durationMs: 3 }] },
    ]);
  });
});

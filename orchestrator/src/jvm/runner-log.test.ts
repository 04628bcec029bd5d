import { describe, expect, it } from '@jest/globals';
import { identityName, parseRunnerLog, platformCases, type PlatformResult } from './runner-log.js';

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const t = (uniqueId: string, legacyName: string, className = 'com.x.ATest') => ({ uniqueId, legacyName, className, name: legacyName, displayName: `"${legacyName}" 🎉` });

describe('runner logs', () => {
  it('reads the fork line, started and finished tests, and counts malformed lines', () => {
    const text = [
      line({ event: 'fork', javaHome: '/jdk', userDir: '/m', basedir: '/m', testClassPath: 'a:b', launcherJar: '', inputArguments: ['-Xmx1g'], systemProperties: {}, environment: {}, configurationParameters: {} }),
      line({ event: 'started', ...t('u1', 'a()') }),
      line({ event: 'finished', ...t('u1', 'a()'), result: 'SUCCESS', durationMs: 4 }),
      line({ event: 'started', ...t('u2', 'b(int)[1]') }),
      '{not json',
      line({ event: 'finished', uniqueId: 'u3' }),
    ].join('\n');
    const log = parseRunnerLog(text, 'f.jsonl');
    expect(log.config).toMatchObject({ javaHome: '/jdk', inputArguments: ['-Xmx1g'] });
    expect(log.finished).toEqual([{ ...t('u1', 'a()'), status: 'success', durationMs: 4, failure: null }]);
    expect(log.started.map((x) => x.uniqueId)).toEqual(['u1', 'u2']);
    expect(log.malformed).toBe(2);
  });

  it('reads the runner\'s JUnit 4 and TestNG lines, failures, and the agent\'s class lines', () => {
    const text = [
      line({ event: 'fork', agent: true, provider: 'junit4', plugin: 'surefire', javaHome: '/jdk', userDir: '/m', basedir: '/m', testClassPath: 'a', launcherJar: '', inputArguments: [], systemProperties: {}, environment: {}, configurationParameters: {} }),
      line({ event: 'class', className: 'shop.CartTest' }),
      line({ event: 'started', className: 'shop.CartTest', name: 'adds[2]' }),
      line({ event: 'finished', className: 'shop.CartTest', name: 'adds[2]', result: 'FAILURE', durationMs: 3, failure: { type: 'java.lang.AssertionError', message: 'expected:<30> but was:<27>', trace: 'java.lang.AssertionError: …\n\tat shop.CartTest.adds(CartTest.java:9)' } }),
    ].join('\n');
    const log = parseRunnerLog(text, 'r.jsonl');
    expect(log.config).toMatchObject({ agent: true, provider: 'junit4' });
    expect(log.classes).toEqual(['shop.CartTest']);
    expect(log.finished).toEqual([
      { className: 'shop.CartTest', name: 'adds[2]', uniqueId: null, legacyName: null, displayName: null, status: 'failure', durationMs: 3, failure: { type: 'java.lang.AssertionError', message: 'expected:<30> but was:<27>', trace: 'java.lang.AssertionError: …\n\tat shop.CartTest.adds(CartTest.java:9)' } },
    ]);
  });

  it('names a test as Surefire\'s XML does by default: no () for a plain method, the invocation index otherwise', () => {
    expect(identityName('adds()')).toBe('adds');
    expect(identityName('adds(int, int)[3]')).toBe('adds(int, int)[3]');
    expect(identityName('greetsEach()[1][2]')).toBe('greetsEach()[1][2]');
    expect(identityName('größe()')).toBe('größe');
  });

  it('folds the build\'s own reruns of one unique ID into one case with its executions', () => {
    const r = (id: string, status: 'success' | 'failure', durationMs = 1): PlatformResult => ({ ...t(id, 'f()'), status, durationMs, failure: null });
    const cases = platformCases([r('u1', 'failure', 5), r('u2', 'success'), r('u1', 'success', 7), r('u3', 'failure', 2), r('u3', 'failure', 3)]);
    expect(cases).toEqual([
      { uniqueId: 'u1', suite: 'com.x.ATest', name: 'f', status: 'success', durationMs: 7, executions: [{ status: 'failure', durationMs: 5 }, { status: 'success', durationMs: 7 }] },
      { uniqueId: 'u2', suite: 'com.x.ATest', name: 'f', status: 'success', durationMs: 1 },
      { uniqueId: 'u3', suite: 'com.x.ATest', name: 'f', status: 'failure', durationMs: 2, executions: [{ status: 'failure', durationMs: 2 }, { status: 'failure', durationMs: 3 }] },
    ]);
  });
});

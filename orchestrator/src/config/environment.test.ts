import { describe, expect, it } from '@jest/globals';
import { run } from '../../test/support/gate-harness.js';
import { booleanEnv, checkEnvironment } from './environment.js';

describe('the environment keys outside the configuration', () => {
  it.each([
    [{ STRESS_GATE_LOG_LEVEL: 'loud' }, 'STRESS_GATE_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent; got "loud"'],
    [{ STRESS_GATE_KEEP_TEMP: 'maybe' }, 'STRESS_GATE_KEEP_TEMP: expected 1, true, yes, 0, false or no; got "maybe"'],
    [{ STRESS_GATE_PLUGIN_JAR: '/nonexistent/plugin.jar' }, 'STRESS_GATE_PLUGIN_JAR: no such file: /nonexistent/plugin.jar'],
    [{ STRESS_GATE_EXECUTOR: 'fast' }, 'STRESS_GATE_EXECUTOR: expected one of direct, gradle; got "fast"'],
    [{ STRESS_GATE_PARALLEL_JVMS: '0' }, 'STRESS_GATE_PARALLEL_JVMS: expected a whole number >= 1; got "0"'],
    [{ STRESS_GATE_DIFF: 'sometimes' }, 'STRESS_GATE_DIFF: expected 1, true, yes, 0, false or no; got "sometimes"'],
    [{ STRESS_GATE_FETCH_MERGE_BASE: 'ask' }, 'STRESS_GATE_FETCH_MERGE_BASE: expected 1, true, yes, 0, false or no; got "ask"'],
  ])('rejects %j as a usage error naming the key', (env, message) => {
    expect(() => checkEnvironment(env)).toThrow(expect.objectContaining({ code: 'USAGE', message }));
  });

  it('accepts good values and unset keys', () => {
    expect(() => checkEnvironment({ STRESS_GATE_LOG_LEVEL: 'debug', STRESS_GATE_KEEP_TEMP: 'TRUE', STRESS_GATE_PLUGIN_JAR: '' })).not.toThrow();
    expect(booleanEnv({ K: 'no' }, 'K', true)).toBe(false);
    expect(booleanEnv({}, 'K', true)).toBe(true);
  });

  it.each([
    ['STRESS_GATE_LOG_LEVEL', 'verbose'],
    ['STRESS_GATE_REQUEST_TIMEOUT_SECONDS', 'soon'],
    ['STRESS_GATE_SHARD_INDEX', '-1'],
    ['STRESS_GATE_URL', 'not a url'],
    ['STRESS_GATE_RUN_ID', 'has spaces'],
    ['STRESS_GATE_IS_CI', 'sometimes'],
    ['STRESS_GATE_EXECUTOR', 'threads'],
  ])('%s=%s stops the CLI with exit 2 before Gradle runs, never a stack trace', async (key, value) => {
    const r = await run(['--stress-new-tests', 'report'], { env: { [key]: value } });
    expect(r.code).toBe(2);
    expect(r.calls).toHaveLength(0);
    expect(r.err).toContain(`${key}: `);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('a bad executor in the settings block is a usage error too', async () => {
    const r = await run(['--stress-new-tests', 'report'], { env: { STRESS_GATE_EXECUTOR: '' }, settings: { executor: 'threads' } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('stressNewTests.executor: expected one of direct, gradle; got "threads"');
  });
});

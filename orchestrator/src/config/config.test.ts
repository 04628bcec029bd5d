import { describe, expect, it } from '@jest/globals';
import { resolveConfig } from './config.js';

const cwd = '/work/repo';

describe('resolveConfig', () => {
  it('is off when the mode is absent everywhere, on CI too', () => {
    const c = resolveConfig({}, { CI: 'true', GITHUB_ACTIONS: 'true' }, { mode: null }, cwd);
    expect(c.mode).toBe('off');
    expect(c.requestTimeoutSeconds).toBe(30);
    expect(c.jvmStartMs).toBe(600);
    expect(c.reportFile).toBe('/work/repo/build/stress-gate/report.json');
    expect(c.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes the flag over the environment over the settings block', () => {
    expect(resolveConfig({ mode: 'report' }, { STRESS_NEW_TESTS: 'enforce' }, { mode: 'off' }, cwd).mode).toBe('report');
    expect(resolveConfig({}, { STRESS_NEW_TESTS: 'enforce' }, { mode: 'report' }, cwd).mode).toBe('enforce');
    expect(resolveConfig({}, {}, { mode: 'report' }, cwd).mode).toBe('report');
    expect(resolveConfig({}, { STRESS_NEW_TESTS: 'off' }, { mode: 'enforce' }, cwd).mode).toBe('off');
    expect(resolveConfig({}, { STRESS_NEW_TESTS: '' }, { mode: 'report' }, cwd).mode).toBe('report');
  });

  it('rejects any other mode as a usage error naming the accepted values and the source', () => {
    expect(() => resolveConfig({ mode: 'on' }, {}, null, cwd)).toThrow(
      expect.objectContaining({ code: 'USAGE', message: '--stress-new-tests: expected one of report, enforce, off; got "on"' }),
    );
    expect(() => resolveConfig({}, { STRESS_NEW_TESTS: 'Report!' }, null, cwd)).toThrow(/^STRESS_NEW_TESTS: expected one of report, enforce, off/);
    expect(() => resolveConfig({}, {}, { mode: 'true' }, cwd)).toThrow(/^stressNewTests\.mode: expected one of/);
  });

  it('reads server settings with the same precedence, the token only from flag or env', () => {
    const c = resolveConfig(
      { serverUrl: 'https://flag.example' },
      { STRESS_GATE_URL: 'https://env.example', STRESS_GATE_PROJECT: 'env-proj', STRESS_GATE_TOKEN: 'tok' },
      { serverUrl: 'https://block.example', project: 'block-proj', requestTimeoutSeconds: 5 },
      cwd,
    );
    expect(c).toMatchObject({ serverUrl: 'https://flag.example', project: 'env-proj', token: 'tok', requestTimeoutSeconds: 5 });
    expect(resolveConfig({}, {}, { project: 'p' } as never, cwd).token).toBeUndefined();
  });

  it('reports other invalid values as `path: message`', () => {
    expect(() => resolveConfig({ serverUrl: 'not a url' }, { STRESS_GATE_REQUEST_TIMEOUT_SECONDS: '-1' }, null, cwd)).toThrow(
      expect.objectContaining({
        code: 'CONFIG',
        message: expect.stringMatching(/--server-url: must be a URL.*\nSTRESS_GATE_REQUEST_TIMEOUT_SECONDS: must be > 0; got -1/s),
      }),
    );
  });

  it('resolves the project dir and report file against the working directory; keeps a given run id', () => {
    const c = resolveConfig({ projectDir: 'sub', reportFile: 'out/r.json' }, { STRESS_GATE_RUN_ID: 'run-1' }, null, cwd);
    expect(c).toMatchObject({ projectDir: '/work/repo/sub', reportFile: '/work/repo/out/r.json', runId: 'run-1' });
    expect(resolveConfig({ projectDir: 'sub' }, {}, null, cwd).reportFile).toBe('/work/repo/sub/build/stress-gate/report.json');
  });

  it('reads the shard of a sharded run from the environment, one for a whole run by default', () => {
    expect(resolveConfig({}, {}, null, cwd)).toMatchObject({ shardIndex: 0, shardTotal: 1 });
    const c = resolveConfig({}, { STRESS_GATE_RUN_ID: 'pipeline-7', STRESS_GATE_SHARD_INDEX: '2', STRESS_GATE_SHARD_TOTAL: '4' }, null, cwd);
    expect(c).toMatchObject({ runId: 'pipeline-7', shardIndex: 2, shardTotal: 4 });
    expect(() => resolveConfig({}, { STRESS_GATE_SHARD_INDEX: '4', STRESS_GATE_SHARD_TOTAL: '4' }, null, cwd)).toThrow(
      'STRESS_GATE_SHARD_INDEX: must be below the shard total 4; got 4',
    );
    expect(() => resolveConfig({}, { STRESS_GATE_SHARD_TOTAL: '0' }, null, cwd)).toThrow('STRESS_GATE_SHARD_TOTAL: must be >= 1');
  });
});

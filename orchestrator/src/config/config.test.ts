import { describe, expect, it } from '@jest/globals';
import { isLoopback, resolveConfig } from './config.js';
import { buildEnvironment } from './environment.js';

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

  it('refuses a server URL with a user or password, without printing it', () => {
    const call = () => resolveConfig({}, { STRESS_GATE_URL: 'https://ci:hunter2@stress.example.com', STRESS_GATE_TOKEN: 't' }, null, cwd);
    expect(call).toThrow('STRESS_GATE_URL: must not carry a user name or password');
    expect(() => resolveConfig({ serverUrl: 'ht tp://ci:hunter2@x' }, {}, null, cwd)).toThrow(/got "ht tp:\/\/…@x"/);
  });

  it('refuses http:// to another machine unless STRESS_GATE_ALLOW_HTTP, and takes it to this one', () => {
    expect(() => resolveConfig({}, { STRESS_GATE_URL: 'http://stress.internal:8787', STRESS_GATE_TOKEN: 't' }, null, cwd)).toThrow('STRESS_GATE_URL: http:// would send the token in clear text to stress.internal:8787');
    expect(resolveConfig({}, { STRESS_GATE_URL: 'http://stress.internal:8787', STRESS_GATE_ALLOW_HTTP: '1' }, null, cwd).serverUrl).toBe('http://stress.internal:8787');
    for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787']) expect(resolveConfig({}, { STRESS_GATE_URL: url }, null, cwd).serverUrl).toBe(url);
    expect(['localhost', '127.1.2.3', '[::1]', 'api.localhost'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', 'localhost.evil.com', '128.0.0.1'].some(isLoopback)).toBe(false);
  });

  it('does not use the token with a server named only in the settings block, unless told', () => {
    const block = { serverUrl: 'https://evil.example', project: 'p' };
    const c = resolveConfig({}, { STRESS_GATE_TOKEN: 't' }, block, cwd);
    expect(c.serverUrl).toBeUndefined();
    expect(c.notices[0]).toMatch(/^stressNewTests\.serverUrl names the server https:\/\/evil\.example, but the token is not sent/);
    expect(resolveConfig({}, { STRESS_GATE_TOKEN: 't', STRESS_GATE_TRUST_SETTINGS_URL: 'yes' }, block, cwd).serverUrl).toBe('https://evil.example');
    // Named by the environment too: the user's own choice.
    expect(resolveConfig({}, { STRESS_GATE_TOKEN: 't', STRESS_GATE_URL: 'https://stress.example' }, block, cwd).serverUrl).toBe('https://stress.example');
  });

  it("gives the build the environment without the gate's credentials and the CI system's, unless it asks to keep one", () => {
    const env = { PATH: '/bin', STRESS_GATE_TOKEN: 'a', STRESS_GATE_MR_TOKEN: 'b', STRESS_GATE_ADMIN_TOKEN: 'c', STRESS_GATE_URL: 'u', GITHUB_TOKEN: 'g', CI_JOB_TOKEN: 'j', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'o', NPM_TOKEN: 'n' };
    expect(buildEnvironment(env)).toEqual({ PATH: '/bin', STRESS_GATE_URL: 'u', NPM_TOKEN: 'n' });
    expect(buildEnvironment({ ...env, STRESS_GATE_BUILD_ENV_KEEP: 'CI_JOB_TOKEN, STRESS_GATE_TOKEN' })).toEqual({ PATH: '/bin', STRESS_GATE_URL: 'u', NPM_TOKEN: 'n', CI_JOB_TOKEN: 'j', STRESS_GATE_BUILD_ENV_KEEP: 'CI_JOB_TOKEN, STRESS_GATE_TOKEN' });
  });
});

import { describe, expect, it } from '@jest/globals';
import { demoEnv, demoHandles, demoKeyPrefix } from './demo-env.js';

const parse = (text: string) => Object.fromEntries(text.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));

describe('demoHandles', () => {
  it('is one project "demo" when none is given, as before --project existed', () => {
    expect(demoHandles(undefined)).toEqual({ handles: ['demo'] });
    expect(demoHandles([])).toEqual({ handles: ['demo'] });
  });

  it('keeps the given handles in order', () => {
    expect(demoHandles(['demo-gradle', 'demo-maven'])).toEqual({ handles: ['demo-gradle', 'demo-maven'] });
  });

  it('refuses a handle given twice, two handles whose keys collide, and what is not a handle', () => {
    expect(demoHandles(['a', 'a'])).toEqual({ error: 'demo: --project a is given twice' });
    expect(demoHandles(['a-b', 'a.b'])).toEqual({ error: 'demo: --project a-b and --project a.b would share the keys STRESS_GATE_DEMO_A_B_…' });
    expect(demoHandles(['Shop'])).toHaveProperty('error');
    expect(demoHandles(['-x'])).toHaveProperty('error');
  });
});

describe('demoEnv', () => {
  const gradle = { handle: 'demo-gradle', token: 'sg_g', mrToken: 'sgm_g' };
  const maven = { handle: 'demo-maven', token: 'sg_m', mrToken: 'sgm_m' };

  it('writes one project under the keys every caller reads, and nothing more', () => {
    expect(parse(demoEnv('http://127.0.0.1:1', [{ handle: 'demo', token: 'sg_d', mrToken: 'sgm_d' }], 'sga_x'))).toEqual({
      STRESS_GATE_URL: 'http://127.0.0.1:1',
      STRESS_GATE_PROJECT: 'demo',
      STRESS_GATE_TOKEN: 'sg_d',
      STRESS_GATE_MR_TOKEN: 'sgm_d',
      STRESS_GATE_ADMIN_TOKEN: 'sga_x',
      STRESS_GATE_DASHBOARD_URL: 'http://127.0.0.1:1/projects/demo/runs',
    });
  });

  it('with several projects, keeps the first under the common keys and writes each under its own', () => {
    const env = parse(demoEnv('http://127.0.0.1:1', [gradle, maven], 'sga_x'));
    expect(env).toMatchObject({ STRESS_GATE_PROJECT: 'demo-gradle', STRESS_GATE_TOKEN: 'sg_g', STRESS_GATE_MR_TOKEN: 'sgm_g', STRESS_GATE_ADMIN_TOKEN: 'sga_x' });
    expect(env).toMatchObject({
      STRESS_GATE_DEMO_DEMO_GRADLE_PROJECT: 'demo-gradle',
      STRESS_GATE_DEMO_DEMO_GRADLE_TOKEN: 'sg_g',
      STRESS_GATE_DEMO_DEMO_GRADLE_MR_TOKEN: 'sgm_g',
      STRESS_GATE_DEMO_DEMO_GRADLE_DASHBOARD_URL: 'http://127.0.0.1:1/projects/demo-gradle/runs',
      STRESS_GATE_DEMO_DEMO_MAVEN_PROJECT: 'demo-maven',
      STRESS_GATE_DEMO_DEMO_MAVEN_TOKEN: 'sg_m',
      STRESS_GATE_DEMO_DEMO_MAVEN_MR_TOKEN: 'sgm_m',
      STRESS_GATE_DEMO_DEMO_MAVEN_DASHBOARD_URL: 'http://127.0.0.1:1/projects/demo-maven/runs',
    });
  });

  it('names keys by the handle upper-cased, "-" and "." as "_"', () => {
    expect(demoKeyPrefix('demo-gradle')).toBe('STRESS_GATE_DEMO_DEMO_GRADLE');
    expect(demoKeyPrefix('shop.v2_x')).toBe('STRESS_GATE_DEMO_SHOP_V2_X');
  });
});

import { describe, expect, it } from '@jest/globals';
import { launcherOf } from './launcher.js';

describe('how the CLI was started', () => {
  const pkg = (dir: string) => `${dir}/node_modules/@stress-gate/orchestrator`;

  it('is a local install when the package sits in node_modules of the project or a folder above it', () => {
    expect(launcherOf(pkg('/work/shop'), '/work/shop', '1.2.3')).toEqual({ kind: 'local' });
    expect(launcherOf(pkg('/work/shop'), '/work/shop/services/api', '1.2.3')).toEqual({ kind: 'local' });
  });

  it('is the scoped package at this version from the npx cache, a global install, another project or a checkout', () => {
    const scoped = { kind: 'package', version: '1.2.3' };
    expect(launcherOf(pkg('/home/ci/.npm/_npx/1a2b3c'), '/work/shop', '1.2.3')).toEqual(scoped);
    expect(launcherOf(pkg('/usr/lib'), '/work/shop', '1.2.3')).toEqual(scoped);
    expect(launcherOf(pkg('/work/tools'), '/work/shop', '1.2.3')).toEqual(scoped);
    expect(launcherOf(pkg('/work/shop-tools'), '/work/shop', '1.2.3')).toEqual(scoped);
    expect(launcherOf('/src/stress-gate/orchestrator', '/src/stress-gate/examples/gradle', '1.2.3')).toEqual(scoped);
  });
});

// The settings block under plain `gradle test` (no orchestrator, so no -PstressGate.* property):
// real Gradle 4.4.1, the plugin jar from this package applied the way the README shows. A mode
// in the block prints one line pointing at stress-orchestrator; the build is otherwise unchanged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execa } from 'execa';
import { access, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../../src/base/package-root.js';
import { writeTree } from '../support/fixture-project.js';

const JAR = path.join(packageRoot(), 'gradle-plugin', 'stress-gate-gradle-plugin.jar');
let dir: string;

/** settings.gradle with the plugin from a local jar (Gradle 4.4 to 8) and an optional block. */
function settings(block: string): string {
  return `buildscript { dependencies { classpath files('${JAR}') } }
apply plugin: dev.stressgate.gradle.StressNewTestsPlugin
rootProject.name = 'plain'
${block}
`;
}

beforeAll(async () => {
  dir = await writeTree({
    'build.gradle': `apply plugin: 'java'
dependencies { testCompile files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar') }
`,
    'src/test/java/plain/PlainTest.java': 'package plain;\npublic class PlainTest { @org.junit.Test public void works() {} }\n',
  });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function gradle(block: string, tasks = ['cleanTest', 'test', 'tasks', '--all']) {
  await writeFile(path.join(dir, 'settings.gradle'), settings(block));
  const r = await execa('gradle', ['--offline', '--console=plain', ...tasks], { cwd: dir, reject: false, all: true });
  const hints = (r.all ?? '').split('\n').filter((line) => line.startsWith('stress gate:'));
  return { code: r.exitCode, out: r.all ?? '', hints };
}

describe('stressNewTests { mode } under plain gradle', () => {
  it('prints one line saying the gate runs only through stress-orchestrator, and the build runs unchanged', async () => {
    const r = await gradle("stressNewTests { mode = 'enforce' }");
    expect(r.code).toBe(0);
    expect(r.hints).toEqual([
      "stress gate: stressNewTests mode 'enforce' applies only when stress-orchestrator runs the build; this build runs unchanged." +
        ' Run the gate with: npx -p @stress-gate/orchestrator stress-orchestrator gradle --stress-new-tests enforce -- cleanTest test tasks --all',
    ]);
    expect(r.out).toContain(':test');
    expect(r.out).not.toMatch(/stressGate\w*Rep|stressGateStress/); // no repetition tasks
    await access(path.join(dir, 'build/test-results/test/TEST-plain.PlainTest.xml'));
    expect(await readdir(path.join(dir, 'build'))).not.toContain('stress-gate');
  }, 120_000);

  it("quotes the build's words so that sh and fish read them back as given", async () => {
    const hostile = `it's\\ $HOME \`x\``;
    const r = await gradle("stressNewTests { mode = 'report' }", [hostile]);
    expect(r.code).not.toBe(0); // no such task; the hint is printed once the settings are read
    expect(r.hints).toHaveLength(1);
    const command = r.hints[0]!.split(' Run the gate with: ')[1]!;
    const words = command.replace(/^npx /, '');
    for (const shell of ['sh', 'fish']) {
      const echoed = await execa(shell, ['-c', `printf '%s\\n' ${words}`]);
      expect(echoed.stdout.split('\n')).toEqual(['-p', '@stress-gate/orchestrator', 'stress-orchestrator', 'gradle', '--stress-new-tests', 'report', '--', hostile]);
    }
  }, 120_000);

  it('prints nothing when the block sets no mode, or mode off', async () => {
    expect((await gradle("stressNewTests { serverUrl = 'http://127.0.0.1:9' }")).hints).toEqual([]);
    const off = await gradle("stressNewTests { mode = 'off' }");
    expect(off.code).toBe(0);
    expect(off.hints).toEqual([]);
  }, 180_000);
});

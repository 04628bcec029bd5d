// The Gradle side of the direct executor: each candidate as a StressTarget, its JVM the Test
// task's own fork settings (exported by the plugin when the task ran in the first pass), its
// selection by the task's framework: JUnit 4 by class and name, TestNG by class, method and
// invocation, the JUnit Platform (useJUnitPlatform, or JUnit 4's JUnitPlatform runner) by unique ID.
// The new invocations of one method share each repetition's JVM (candidates/invocation-groups.ts).
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { UnrunnableCandidate } from '../repetitions/stress-plan.js';
import { configurationParameters, forkClassPath } from '../jvm/fork-jvm.js';
import type { ForkConfig } from '../jvm/runner-log.js';
import { groupTargets, singleTarget, type JvmSpec, type Selection, type StressTarget } from '../jvm/stress-target.js';
import { testNgName } from '../jvm/testng-names.js';
import { readForkSpec, type ForkSpec } from './fork-spec.js';
import { gradleLocator } from './gradle-locator.js';

/** The targets, and candidates the direct executor cannot select (with why); or why it cannot run at all. */
export type GradleTargets =
  | { ok: true; targets: StressTarget[]; unrunnable: UnrunnableCandidate[] }
  | { ok: false; why: string };

/** Plans `stress` (candidates with a source) for the direct executor. */
export async function gradleTargets(stress: readonly GateCandidate[], manifest: string): Promise<GradleTargets> {
  const specs = new Map<string, ForkSpec>();
  const targets: StressTarget[] = [];
  const unrunnable: UnrunnableCandidate[] = [];
  for (const candidate of stress) {
    if (!candidate.source) continue;
    const { task, occurrence, platform } = gradleLocator(candidate.source);
    let spec = specs.get(task);
    if (!spec) {
      const read = await readForkSpec(manifest, task);
      if (!read.ok) return { ok: false, why: read.why };
      spec = read.spec;
      specs.set(task, spec);
    }
    const selection = selectionOf(candidate, spec);
    if (typeof selection === 'string') {
      unrunnable.push({ candidate, why: selection });
      continue;
    }
    const member = { candidate, selection, occurrence: selection.kind === 'junit4' ? occurrence : 1 };
    targets.push(singleTarget(member, jvmOfSpec(spec, platform), task, { configurationParameters: platform ? configurationParameters(platform) : {} }));
  }
  return { ok: true, targets: groupTargets(targets), unrunnable };
}

/**
 * The Test task's JVM. A platform test JVM's listener reported the JVM's real class path (Gradle's
 * own launcher included, which Gradle 4.6+ supplies from its distribution); the task's class path
 * plus that launcher from an older runner.
 */
function jvmOfSpec(spec: ForkSpec, platform: ForkConfig | undefined): JvmSpec {
  let classpath = [...spec.classpath];
  if (platform?.runtimeClassPath) classpath = forkClassPath(platform, true);
  else if (platform?.launcherJar && !classpath.includes(platform.launcherJar)) classpath.push(platform.launcherJar);
  // Gradle passes the task's system properties as -D arguments (getAllJvmArgs): nothing more to set.
  return { java: spec.executable, jvmArgs: spec.jvmArgs, classpath, workingDir: spec.workingDir, environment: spec.environment, systemProperties: {} };
}

function selectionOf(c: GateCandidate, spec: ForkSpec): Selection | string {
  const source = c.source!;
  if (source.uniqueId) return { kind: 'platform', uniqueId: source.uniqueId };
  switch (spec.framework) {
    case 'testng':
      return { kind: 'testng', className: c.suite, name: source.xmlName, ...testNgName(source.xmlName, 'gradle') };
    case 'junit':
      return { kind: 'junit4', className: c.suite, name: source.xmlName };
    default:
      return `${source.unit} runs the JUnit Platform and its listener did not report this test's unique ID`;
  }
}

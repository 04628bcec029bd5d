// The Maven side of the direct executor: each candidate as a StressTarget, its JVM the Surefire or
// Failsafe fork that ran it in the first pass (JVM, argLine, the fork's real class path, system
// properties, environment, working directory), its selection the provider's: the JUnit Platform
// by unique ID, JUnit 4 and 4.7 by class and name, TestNG by class, method and invocation. The new
// invocations of one method share each repetition's JVM (candidates/invocation-groups.ts).
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { UnrunnableCandidate } from '../repetitions/stress-plan.js';
import { configurationParameters, jvmOfFork } from '../jvm/fork-jvm.js';
import { groupTargets, singleTarget, type Selection, type StressTarget } from '../jvm/stress-target.js';
import { testNgName } from '../jvm/testng-names.js';
import { mavenLocator } from './maven-first-pass.js';

/** The targets, and the candidates no fork can run again (with why). */
export function mavenTargets(stress: readonly GateCandidate[]): { targets: StressTarget[]; unrunnable: UnrunnableCandidate[] } {
  const targets: StressTarget[] = [];
  const unrunnable: UnrunnableCandidate[] = [];
  for (const candidate of stress) {
    const s = candidate.source;
    if (!s || !candidate.repetitions) continue;
    const { fork: src, occurrence } = mavenLocator(s);
    if (!src) {
      unrunnable.push({ candidate, why: 'no Surefire or Failsafe fork was seen running it (forkCount=0 runs tests inside Maven itself, or its fork did not start the stress gate\'s agent)' });
      continue;
    }
    const selection: Selection =
      src.runner === 'platform'
        ? { kind: 'platform', uniqueId: src.uniqueId! }
        : src.runner === 'testng'
          ? { kind: 'testng', className: candidate.suite, name: s.xmlName, ...testNgName(s.xmlName, 'surefire') }
          : { kind: 'junit4', className: candidate.suite, name: s.xmlName };
    const member = { candidate, selection, occurrence: src.runner === 'junit4' ? occurrence : 1 };
    const platform = src.runner === 'platform';
    targets.push(singleTarget(member, jvmOfFork(src.fork, platform), src.forkFile, { configurationParameters: platform ? configurationParameters(src.fork) : {}, observed: src.fork }));
  }
  return { targets: groupTargets(targets), unrunnable };
}

// Every new invocation of one parameterised or data-driven method (a `@ParameterizedTest`, a
// JUnit 4 `Parameterized` class, a TestNG data provider, a `@TestFactory`'s dynamic tests), when
// two or more are stressed, shares each repetition's JVM: they run there in the build's order,
// each recorded apart, and the method is priced once, by the curve, from the sum of their
// durations. A method with 100 new invocations costs 10 JVMs, not 1,000, and fits the ceiling.
//
// The price in fidelity: only the first invocation runs first in a fresh JVM; the others run after
// their siblings, as they do in the build. A failure that needs an invocation to be the first test
// of its JVM is caught for the first one only (docs/detection-power.md).
import { invocationMethod, price, type CurveBucket } from '#contract';
import type { GateCandidate } from './gate-candidate.js';

// The rule is the contract's: the run page and the run report group by it too.
export { invocationMethod };

/**
 * Pure: the candidates, with `group` set and the group's price as `repetitions` on every
 * stressable invocation whose method has another one stressed in the same unit of the build. A group the curve
 * would exclude as a whole (its sum slower than the slowest bucket) stays apart, each priced alone.
 */
export function groupInvocations(candidates: readonly GateCandidate[], curve: readonly CurveBucket[]): GateCandidate[] {
  const groups = new Map<string, GateCandidate[]>();
  for (const c of candidates) {
    const method = c.source && c.excluded === null && c.repetitions ? invocationMethod(c.source.xmlName) : null;
    if (!method) continue;
    const key = JSON.stringify([c.source!.unit, c.suite, method]);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const priced = new Map<GateCandidate, { group: string; repetitions: number }>();
  for (const [group, members] of groups) {
    if (members.length < 2) continue;
    const { repetitions } = price(members.reduce((ms, m) => ms + m.durationMs, 0), curve);
    if (repetitions === null) continue;
    for (const m of members) priced.set(m, { group, repetitions });
  }
  return candidates.map((c) => {
    const p = priced.get(c);
    return p ? { ...c, ...p } : c;
  });
}

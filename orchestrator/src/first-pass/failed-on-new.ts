// A first pass that failed: did it fail only on new tests? Then the gate stresses them (the build
// already failed, so this costs only the time the author would spend rerunning CI) and says
// whether each is flaky or broken; a failing test that is not new keeps the old rule (skip). Pure.
import type { TestCaseIdentity } from '#contract';
import { identityKey } from '../identity/identity-key.js';
import type { FirstPass } from './first-pass.js';

/** The tests that failed the build: failed and not muted (a muted failure is masked). */
export function failingTests(first: Pick<FirstPass, 'cases'>): FirstPass['cases'] {
  return first.cases.filter((c) => c.status === 'failure' && !c.muted);
}

/** True when at least one test failed the build and every one that did is among `candidates` (new tests). */
export function failedOnlyOnNew(first: Pick<FirstPass, 'cases'>, candidates: readonly TestCaseIdentity[]): boolean {
  const failing = failingTests(first);
  if (failing.length === 0) return false;
  const isNew = new Set(candidates.map((c) => identityKey(c)));
  return failing.every((c) => isNew.has(identityKey(c)));
}

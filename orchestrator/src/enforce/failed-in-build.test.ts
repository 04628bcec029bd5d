import { describe, expect, it } from '@jest/globals';
import { candidate, reps } from '../../test/support/builders.js';
import { decideFailedBuild, judgeFailedInBuild } from './failed-in-build.js';
import { classifyCandidate } from './outcome.js';

const failedInBuild = (name: string) => candidate(name, { firstPassStatus: 'failure' });

describe('judgeFailedInBuild', () => {
  it('calls a test that failed in the build and passed every repetition flaky: it disagreed with itself', () => {
    expect(judgeFailedInBuild(classifyCandidate(failedInBuild('a'), reps(10), false))).toMatchObject({ outcome: 'failed', failedInBuild: 'flaky', failures: 0 });
  });

  it('calls one that failed some repetitions flaky too, with its counts', () => {
    expect(judgeFailedInBuild(classifyCandidate(failedInBuild('a'), reps(10, [2, 6, 10]), false))).toMatchObject({ outcome: 'failed', failedInBuild: 'flaky', failures: 3 });
  });

  it('calls one that failed every repetition broken', () => {
    expect(judgeFailedInBuild(classifyCandidate(failedInBuild('a'), reps(10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), false))).toMatchObject({ outcome: 'failed', failedInBuild: 'broken' });
  });

  it('leaves a test that passed in the build, or one not stressed, as it was', () => {
    const passedInBuild = classifyCandidate(candidate('a', { firstPassStatus: 'success' }), reps(10), false);
    expect(judgeFailedInBuild(passedInBuild)).toBe(passedInBuild);
    const cut = classifyCandidate(failedInBuild('a'), reps(3), true);
    expect(judgeFailedInBuild(cut)).toMatchObject({ outcome: 'not_stressed' });
    expect(judgeFailedInBuild(cut).failedInBuild).toBeUndefined();
  });
});

describe('decideFailedBuild', () => {
  const flaky = judgeFailedInBuild(classifyCandidate(failedInBuild('a'), reps(10, [4]), false));
  const broken = judgeFailedInBuild(classifyCandidate(failedInBuild('b'), reps(10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), false));

  it.each(['report', 'enforce'] as const)('keeps the build exit code and never blocks in %s mode; a flaky test would have blocked', (mode) => {
    expect(decideFailedBuild(mode, 1, [flaky], null)).toMatchObject({ outcome: 'failed', blocked: false, wouldHaveBlocked: true, exitCode: 1 });
  });

  it('says nothing would have blocked when the failing tests are only broken', () => {
    expect(decideFailedBuild('enforce', 1, [broken], null)).toMatchObject({ blocked: false, wouldHaveBlocked: false, exitCode: 1 });
  });

  it('keeps any non-zero build exit code', () => {
    expect(decideFailedBuild('enforce', 137, [flaky, broken], null)).toMatchObject({ exitCode: 137 });
  });

  it('does not count a muted flaky test', () => {
    expect(decideFailedBuild('enforce', 1, [{ ...flaky, muted: true }], null)).toMatchObject({ wouldHaveBlocked: false, exitCode: 1 });
  });
});

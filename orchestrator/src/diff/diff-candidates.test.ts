import { describe, expect, it } from '@jest/globals';
import { candidate, reps, verdict } from '../../test/support/builders.js';
import { classifyCandidate, decideGate } from '../enforce/outcome.js';
import { identityKey } from '../identity/identity-key.js';
import type { DiffAnalysis, TestChange } from './diff-analysis.js';
import { widenVerdict } from './diff-candidates.js';
import type { LocatedTest } from './source-index.js';

const t = (name: string, durationMs = 100) => ({ module: ':app', suite: 'shop.CartTest', name, durationMs });

function analysis(changes: Record<string, TestChange>, status: 'analysed' | 'skipped' = 'analysed'): DiffAnalysis {
  const tests = new Map(Object.entries(changes).map(([name, change]) => [identityKey(t(name)), { located: { fingerprint: 'f'.repeat(32) } as LocatedTest, change }]));
  return { status, why: status === 'skipped' ? 'a shallow clone' : null, quiet: false, base: 'abc', ref: 'main', from: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME', noBase: false, fetched: false, tests };
}

describe('widenVerdict', () => {
  const ran = [t('kept'), t('changed'), t('brandNew'), t('moved'), t('slow', 400_000)];
  const newOne = { ...t('brandNew'), testCaseId: 'id-new', repetitions: 10, excluded: null };

  it('adds the modified tests the server knows to its new ones, priced on its curve, and keeps the cap honest', () => {
    const v = verdict({ candidates: [newOne], parameters: { ...verdict().parameters, candidateCap: 1 } });
    const w = widenVerdict(v, ran, analysis({ changed: { change: 'modified' }, kept: { change: 'unchanged' }, slow: { change: 'modified' } }));
    expect(w.verdict.candidates.map((c) => [c.name, c.repetitions, c.excluded?.reason ?? null])).toEqual([
      ['brandNew', 10, null],
      ['changed', 10, null],
      ['slow', null, 'slow'],
    ]);
    expect([...w.origins.values()]).toEqual(['modified', 'modified']);
    // Two stressable candidates over a cap of one: the cap fires on the widened set, never on the server's count alone.
    expect(w.verdict.guards.candidateCap).toEqual({ fired: true, count: 2, cap: 1 });
    expect(w.dayOne).toBe(false);
  });

  it('on day one (the premise guard), takes the added and modified tests from the diff and lists its renames, not stressed', () => {
    const v = verdict({ candidates: ran.map((r) => ({ ...r, testCaseId: `id-${r.name}`, repetitions: 10, excluded: null })), guards: { ...verdict().guards, premise: { fired: true, reason: 'no_default_branch_history' } } });
    const w = widenVerdict(v, ran, analysis({ brandNew: { change: 'added' }, changed: { change: 'modified' }, moved: { change: 'added', renamedFrom: { suite: 'shop.OldTest', name: 'moved' } }, kept: { change: 'unchanged' } }));
    expect(w.dayOne).toBe(true);
    expect(w.verdict.guards.premise.fired).toBe(false);
    expect(w.verdict.candidates.map((c) => `${c.name} ${w.origins.get(c.testCaseId)}`)).toEqual(['brandNew diff', 'changed modified']);
    expect(w.renamed).toEqual([{ ...t('moved'), durationMs: undefined, from: { module: ':app', suite: 'shop.OldTest', name: 'moved' } }].map(({ durationMs: _, ...r }) => r));
  });

  it('changes nothing without an analysis, or with a skipped one: the premise guard still fires', () => {
    const v = verdict({ guards: { ...verdict().guards, premise: { fired: true, reason: 'no_default_branch_history' } } });
    expect(widenVerdict(v, ran, null).verdict).toBe(v);
    expect(widenVerdict(v, ran, analysis({ brandNew: { change: 'added' } }, 'skipped')).verdict).toBe(v);
  });

  it('passes the server renames through', () => {
    const v = verdict({ renamed: [{ ...t('moved'), testCaseId: 'x', from: { module: ':app', suite: 'shop.OldTest', name: 'moved', testCaseId: 'y' } }] });
    expect(widenVerdict(v, ran, null).renamed).toEqual([{ module: ':app', suite: 'shop.CartTest', name: 'moved', from: { module: ':app', suite: 'shop.OldTest', name: 'moved' } }]);
  });
});

describe('decideGate with modified tests', () => {
  const failedModified = classifyCandidate(candidate('m', { origin: 'modified' }), reps(10, [2]), false);
  const failedNew = classifyCandidate(candidate('n'), reps(10, [2]), false);

  it('does not block on a modified test unless the project says so, and always blocks on a new one', () => {
    expect(decideGate('enforce', 0, [failedModified], null, true, false)).toMatchObject({ blocked: false, wouldHaveBlocked: false });
    expect(decideGate('enforce', 0, [failedModified], null, true, true)).toMatchObject({ blocked: true, outcome: 'failed' });
    expect(decideGate('enforce', 0, [failedModified, failedNew], null, true, false)).toMatchObject({ blocked: true });
  });
});

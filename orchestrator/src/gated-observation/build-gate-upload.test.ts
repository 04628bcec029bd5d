import { describe, expect, it } from '@jest/globals';
import * as v from 'valibot';
import { GateUpload } from '@stress-gate/verdict-api/contract';
import { candidate, classifyCandidate, gateReport, reps } from '../../test/support/builders.js';
import { buildGateUpload } from './build-gate-upload.js';

describe('buildGateUpload', () => {
  it('carries the verdict and every repetition, and satisfies the contract', () => {
    const results = [
      classifyCandidate(candidate('a'), reps(10, [2]), false),
      classifyCandidate(candidate('b', { muted: true }), reps(10), false),
      classifyCandidate(candidate('c', { repetitions: null, excluded: { reason: 'slow', detail: '' } }), [], false),
      classifyCandidate(candidate('d'), reps(3), true),
    ];
    const body = buildGateUpload(gateReport('report', results))!;
    expect(v.safeParse(GateUpload, body).success).toBe(true);
    expect(body).toMatchObject({ mode: 'report', outcome: 'failed', candidatesExamined: 4, stressed: 2, excluded: 1, notStressed: 1, blocked: false, wouldHaveBlocked: true });
    expect(body.testCases.map((t) => [t.name, t.outcome, t.muted, t.repetitions.length])).toEqual([
      ['a', 'failed', false, 10],
      ['b', 'passed', true, 10],
      ['d', 'not_stressed', false, 3],
    ]);
  });

  it('records a guard with its name and count, and no repetitions', () => {
    const guard = { name: 'ceiling' as const, count: 40, reason: 'Ceiling: …' };
    const results = [classifyCandidate(candidate('a'), [], true)].map((r) => ({ ...r, outcome: 'not_stressed' as const }));
    const body = buildGateUpload(gateReport('enforce', results, guard))!;
    expect(body).toMatchObject({ outcome: 'guarded', guard: { name: 'ceiling', count: 40, reason: 'Ceiling: …' }, blocked: false, testCases: [] });
  });

  it('uploads nothing when the server could not be asked', () => {
    expect(buildGateUpload(gateReport('report', [], null, { outcome: 'server_unavailable' }))).toBeNull();
  });
});

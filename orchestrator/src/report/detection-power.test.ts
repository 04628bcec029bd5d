import { describe, expect, it } from '@jest/globals';
import { candidate, classifyCandidate, reps } from '../../test/support/builders.js';
import { detectionPower, detectionSentence, ruledOutFailureRate } from './detection-power.js';

describe('detection power', () => {
  it('is 1 - 0.05^(1/r): 26% after 10 clean repetitions, 45% after 5', () => {
    expect(ruledOutFailureRate(10)).toBeCloseTo(0.2589, 4);
    expect(ruledOutFailureRate(5)).toBeCloseTo(0.4507, 4);
    expect(ruledOutFailureRate(1)).toBeCloseTo(0.95, 10);
  });

  it('states the weakest clean result once, as a bound rather than a promise', () => {
    const results = [classifyCandidate(candidate('a'), reps(10), false), classifyCandidate(candidate('b', { repetitions: 5 }), reps(5), false)];
    const d = detectionPower(results)!;
    expect(d).toMatchObject({ repetitions: 5, passed: 2, uniform: false });
    expect(detectionSentence(d)).toBe('5 clean repetitions (the fewest any passing new test got) rule out a failure rate above 45% per run (95% confidence); rarer flakes can pass.');
    expect(detectionSentence(detectionPower(results.slice(0, 1))!)).toBe('10 clean repetitions rule out a failure rate above 26% per run (95% confidence); rarer flakes can pass.');
  });

  it('says one clean repetition in the singular', () => {
    const one = [classifyCandidate(candidate('a', { repetitions: 1 }), reps(1), false)];
    expect(detectionSentence(detectionPower(one)!)).toBe('1 clean repetition rules out a failure rate above 95% per run (95% confidence); rarer flakes can pass.');
    const mixed = [...one, classifyCandidate(candidate('b'), reps(10), false)];
    expect(detectionSentence(detectionPower(mixed)!)).toMatch(/^1 clean repetition \(the fewest any passing new test got\) rules out /);
  });

  it('says nothing when no candidate passed', () => {
    expect(detectionPower([classifyCandidate(candidate('a'), reps(10, [3]), false)])).toBeNull();
  });
});

describe('detection power in the rendered reports', () => {
  it('is said once in the terminal report and once in the job summary', async () => {
    const { gateReport } = await import('../../test/support/builders.js');
    const { renderReport } = await import('./render-report.js');
    const { renderStepSummary } = await import('./step-summary.js');
    const report = gateReport('report', [classifyCandidate(candidate('a'), reps(10), false), classifyCandidate(candidate('b'), reps(10), false)]);
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    const sentence = '10 clean repetitions rule out a failure rate above 26% per run (95% confidence); rarer flakes can pass.';
    expect(flat(renderReport(report)).split(sentence)).toHaveLength(2);
    expect(renderStepSummary(report).split(sentence)).toHaveLength(2);
  });
});

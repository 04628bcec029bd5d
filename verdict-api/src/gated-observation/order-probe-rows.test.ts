import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '../errors/errors.js';
import { testCaseId } from '../identity/test-case-id.js';
import { parseGateUpload } from '../validation/parse-body.js';
import { orderFindingRows, orderProbeRow, rejectInconsistentOrderProbes } from './order-probe-rows.js';

const KEY = { project_id: '00000000-0000-4000-8000-000000000001', run_id: 'mr-1', shard_index: 0 };
const OTHER = { module: ':app', suite: 'com.shop.CartTest', name: 'clears' };
const reps = (fails: number[] = []) => Array.from({ length: 5 }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 10 }));
const finding = (over: Record<string, unknown> = {}) => ({
  role: 'victim', other: OTHER, otherPassesAlone: null, replays: 3, replayFailures: 3,
  failure: { repetition: 1, kind: 'failure', type: 'java.lang.AssertionError', message: null, stackTrace: null, stdoutTail: null, stderrTail: '', durationMs: 12, exitCode: null, signal: null, hsErrFile: null },
  ...over,
});
const testCase = (over: Record<string, unknown> = {}) => ({
  module: ':app', suite: 'com.shop.CheckoutTest', name: 'adds', outcome: 'order_dependent', repetitions: reps(),
  orderProbe: { status: 'probed', why: null, seed: '4294967295', partners: 4, partnersRun: 4, sampledClasses: 1, moduleClasses: 2, findings: [finding()] },
  ...over,
});
const cases = (...testCases: unknown[]) => parseGateUpload({ mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true, testCases }).testCases;
const refused = (...testCases: unknown[]) => {
  try {
    rejectInconsistentOrderProbes(cases(...testCases));
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    return (e as BadRequestError).field;
  }
  return null;
};

describe('the order probe of a gate upload', () => {
  it('accepts an order_dependent test case with findings, and probes that found nothing on others', () => {
    expect(refused(testCase(), testCase({ name: 'other', outcome: 'passed', orderProbe: { ...testCase().orderProbe, status: 'not_run', why: 'no other test', findings: [] } }), testCase({ name: 'old', outcome: 'passed', orderProbe: undefined }))).toBeNull();
    // Every finding past the CLI's bound: still order_dependent.
    expect(refused(testCase({ orderProbe: { ...testCase().orderProbe, findings: [], findingsOmitted: 2 } }))).toBeNull();
  });

  it.each([
    ['order_dependent without a probe', testCase({ orderProbe: null }), 'testCases[0].orderProbe'],
    ['order_dependent without a finding, uploaded or omitted', testCase({ orderProbe: { ...testCase().orderProbe, findings: [] } }), 'testCases[0].orderProbe'],
    ['findings on a failed test case', testCase({ outcome: 'failed', repetitions: reps([2]) }), 'testCases[0].orderProbe'],
    ['a failed repetition of an order_dependent one', testCase({ repetitions: reps([2]) }), 'testCases[0].repetitions[1]'],
    ['no failed replay', testCase({ orderProbe: { ...testCase().orderProbe, findings: [finding({ replayFailures: 0 })] } }), 'testCases[0].orderProbe.findings[0].replayFailures'],
    ['the test case as its own other', testCase({ orderProbe: { ...testCase().orderProbe, findings: [finding({ other: { module: ':app', suite: 'com.shop.CheckoutTest', name: 'adds' } })] } }), 'testCases[0].orderProbe.findings[0].other'],
    ['a polluter without otherPassesAlone', testCase({ orderProbe: { ...testCase().orderProbe, findings: [finding({ role: 'polluter' })] } }), 'testCases[0].orderProbe.findings[0].otherPassesAlone'],
  ])('refuses %s, naming the field', (_what, bad, field) => {
    expect(refused(bad)).toBe(field);
  });

  it('makes the rows: counts by role, the setting, the seed as sent, the failure as gate_failures has it, the other by id', () => {
    const [t] = cases(testCase({ orderProbe: { ...testCase().orderProbe, findings: [finding(), finding({ role: 'polluter', otherPassesAlone: false, other: { ...OTHER, name: 'sums' } })], findingsOmitted: 2 } }));
    expect(orderProbeRow(KEY, 'id-1', t!, false, '2026-12-05 10:00:00')).toMatchObject({
      test_case_id: 'id-1', status: 'probed', has_why: 0, why: '', seed: '4294967295', order_dependent: 1, victims: 1, polluters: 1, findings_omitted: 2, order_findings_block: 0,
    });
    const rows = orderFindingRows(KEY, 'id-1', t!, '2026-12-05 10:00:00');
    expect(rows.map((r) => [r['position'], r['role'], r['other_name'], r['has_other_passes_alone'], r['other_passes_alone']])).toEqual([[0, 'victim', 'clears', 0, 0], [1, 'polluter', 'sums', 1, 0]]);
    expect(rows[0]).toMatchObject({ test_case_id: 'id-1', other_test_case_id: testCaseId(KEY.project_id, OTHER), has_message: 0, has_stderr_tail: 1, stderr_tail: '', kind: 'failure', replays: 3, replay_failures: 3 });
    expect(orderProbeRow(KEY, 'id-2', cases(testCase({ outcome: 'passed', orderProbe: null }))[0]!, true, 'now')).toBeNull();
  });
});

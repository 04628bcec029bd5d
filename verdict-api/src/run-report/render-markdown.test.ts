import { describe, expect, it } from '@jest/globals';
import type { RunPage } from '../run-page/run-page.js';
import { renderRunReport } from './render-markdown.js';

const page = (over: Partial<RunPage> = {}): RunPage => ({
  runId: 'run-1',
  branch: 'feature/checkout',
  commit: '0123456789abcdef0123',
  isCi: true,
  status: 'success',
  shards: 1,
  durationMs: 1000,
  startedAt: '2026-12-01 10:00:00',
  testCases: [
    { testCaseId: 'tc-1', module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', status: 'success', durationMs: 4, isNew: true, muted: false },
    { testCaseId: 'tc-2', module: ':app', suite: 'com.shop.CartTest', name: 'retried', status: 'success', durationMs: 4, isNew: false, muted: false },
    { testCaseId: 'tc-3', module: ':app', suite: 'com.shop.CartTest', name: 'broken|pipe', status: 'failure', durationMs: 4, isNew: false, muted: true },
  ],
  flaky: [
    { module: ':app', suite: 'com.shop.CartTest', name: 'retried', caughtBy: 'organic', failed: 1, repetitions: 2 },
    { module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', caughtBy: 'stress_gate', failed: 3, repetitions: 10 },
  ],
  gate: { mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, notStressed: 0, guard: null, blocked: false, wouldHaveBlocked: true, shards: 1, stressPassMs: null, candidates: [], detection: null },
  ...over,
});

describe('renderRunReport', () => {
  it('lists stress findings in the one flaky section, labelled by provenance', () => {
    expect(renderRunReport(page())).toBe(
      [
        '## Test run `run-1` on `feature/checkout` (0123456789ab)',
        '',
        '3 test cases: 2 passed, 1 failed, 0 skipped, 1 new.',
        '',
        '### Failed tests',
        '',
        '| Test | Module |',
        '| --- | --- |',
        '| `com.shop.CartTest.broken\\|pipe` (muted) | `:app` |',
        '',
        '### Flaky tests',
        '',
        '| Test | Module | Disagreed | Found by |',
        '| --- | --- | --- | --- |',
        '| `com.shop.CartTest.retried` | `:app` | failed 1 of 2 | this run (the build repeated it) |',
        '| `com.shop.CheckoutTest.appliesDiscount` | `:app` | failed 3 of 10 | stress gate: new test, deliberately repeated in fresh JVMs |',
        '',
      ].join('\n'),
    );
  });

  it('omits empty sections and never renders the gate verdict', () => {
    const text = renderRunReport(page({ flaky: [], testCases: [] }));
    expect(text).toBe('## Test run `run-1` on `feature/checkout` (0123456789ab)\n\n0 test cases: 0 passed, 0 failed, 0 skipped.\n');
    expect(renderRunReport(page())).not.toMatch(/block/i);
  });
});

// What every JVM stack's gate run must show (test/support/jvm-stacks.ts): the flaky new tests
// caught, the stable new tests passed in every repetition, nothing left to the gate's own error.
import { expect } from '@jest/globals';
import type { StackProject } from './jvm-stacks.js';

interface Candidate {
  suite: string;
  name: string;
  outcome: string;
  expected: number;
  failures: number;
  recorded: { status: string }[];
  evidence: { failures: { message: string | null }[] } | null;
  reproduce?: string;
}

/** Asserts the enforce run of `p`'s branch blocked for its flaky tests only, with their failure message and reproduce command. */
export function expectStackCaught(p: StackProject, run: { code: number | undefined; out: string; err: string; report: { outcome: string; problems: string[]; candidates: Candidate[] } }): void {
  const context = `\n--- stdout\n${run.out}\n--- stderr\n${run.err.slice(-4000)}`;
  const byName = new Map(run.report.candidates.map((c) => [`${c.suite} ${c.name}`, c]));
  const summary = [...byName.values()].map((c) => `${c.suite} ${c.name}: ${c.outcome} (${c.failures} of ${c.recorded.length})`);
  expect({ code: run.code, outcome: run.report.outcome, problems: run.report.problems, context }).toEqual({ code: 1, outcome: 'failed', problems: [], context });
  // Exactly the new tests are candidates: the old one is known on the default branch.
  expect(summary.map((s) => s.split(':')[0]).sort()).toEqual([...p.flaky, ...p.stable].map(([s, n]) => `${s} ${n}`).sort());
  for (const [suite, name] of p.flaky) {
    const c = byName.get(`${suite} ${name}`)!;
    expect({ test: `${suite} ${name}`, outcome: c.outcome, failed: c.failures > 0, summary }).toEqual({ test: `${suite} ${name}`, outcome: 'failed', failed: true, summary });
    // Why, in the JSON report and on the terminal, and how to rerun it.
    expect(c.evidence?.failures[0]?.message).toContain('expected 30 but was 27');
    // The root module (":") is left out of the selector, which then needs no quotes.
    // The first failure's frames reach the test's own line, whatever the assertion library's frames above it.
    expect(run.out).toMatch(new RegExp(`\\n {9}at ${suite.replaceAll('.', '\\.')}\\.${name}\\([A-Za-z]+\\.java:\\d+\\)\\n`));
    expect(c.reproduce).toMatch(new RegExp(`^npx stress-orchestrator .* --stress-tests ${suite.replaceAll('.', '\\.')}\\.${name} --repetitions 50$`));
  }
  expect(run.out).toContain('expected 30 but was 27');
  expect(run.out).toContain('   Reproduce:');
  for (const [suite, name] of p.stable) {
    const c = byName.get(`${suite} ${name}`)!;
    expect({ test: `${suite} ${name}`, outcome: c.outcome, passed: c.recorded.filter((r) => r.status === 'success').length, expected: c.expected }).toEqual({
      test: `${suite} ${name}`,
      outcome: 'passed',
      passed: c.expected,
      expected: c.expected,
    });
  }
}

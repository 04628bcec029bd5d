// What a gate run on the build shapes (build-shapes.ts) must show, as one object keyed by shape so
// that a failure names every shape that broke, in the gate's own words.
import { existsSync, readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import type { ShapeExpectation } from './build-shapes.js';

/** The words each kind of new test must end in. */
export const CAUGHT = 'caught';
export const PASSED = 'passed every repetition';
export const ABSENT = 'not a candidate';

interface Candidate {
  module: string;
  suite: string;
  name: string;
  outcome: string;
  expected: number;
  failures: number;
  why: string | null;
  recorded: { status: string }[];
  evidence: { failures: { message: string | null }[] } | null;
  reproduce?: string;
}

/** The shape a candidate belongs to: the first segment of its module. */
export const shapeOf = (module: string): string => module.split(':')[1] ?? module;

/** The printed report's line of a candidate (`:module Class.name  …`), and its first problem: how it broke, in the gate's words. */
function printed(c: Candidate, out: string, problems: readonly string[]): string {
  const simple = `${c.suite.slice(c.suite.lastIndexOf('.') + 1)}.${c.name}`;
  const line = out.split('\n').find((l) => l.includes(`${c.module} `) && l.includes(simple))?.trim();
  const problem = problems.find((p) => p.includes(` of ${c.suite}.${c.name}: `));
  // A problem names the repetition's stderr.log: its first line is the runner's or the JVM's own word.
  const log = problem?.match(/; see (\S+)\.$/)?.[1];
  const stderr = log && existsSync(log) ? readFileSync(log, 'utf8').split('\n').find((l) => l.trim())?.trim().slice(0, 400) : undefined;
  return `${line ? `; printed: ${line.replace(/\s+/g, ' ')}` : ''}${problem ? `; problem: ${problem.replace(/; see \S+$/, '')}` : ''}${stderr ? `; its stderr: ${stderr}` : ''}`;
}

/** One candidate in words, when it is not what was expected. */
function inWords(c: Candidate, out: string, problems: readonly string[]): string {
  const first = c.evidence?.failures[0]?.message;
  return `${c.outcome}: ${c.recorded.length} of ${c.expected} repetitions recorded, ${c.failures} failed${c.why ? `; ${c.why}` : ''}${first ? `; first failure: ${first.split('\n')[0]!.slice(0, 300)}` : ''}${printed(c, out, problems)}`;
}

/** `caught` when the candidate failed with the flake's message and its reproduce command names it exactly; else why not. */
function caught(c: Candidate, out: string, problems: readonly string[]): string {
  if (c.outcome !== 'failed' || c.failures === 0 || !(c.evidence?.failures[0]?.message ?? '').includes('expected 30 but was 27')) return inWords(c, out, problems);
  // The command the gate prints to rerun it: this module's test alone (quoted: the selector has a space).
  const selector = ` --stress-tests '${c.module} ${c.suite}.${c.name}' --repetitions 50 -- `;
  return c.reproduce?.startsWith('npx -p @stress-gate/orchestrator@') && c.reproduce.includes(selector) ? CAUGHT : `caught, but its reproduce command is ${c.reproduce ?? 'missing'}`;
}

/**
 * The gate's run per shape, `{shape: {"suite name": words}}`, and the same object as it must be:
 * flaky tests `caught` (failed, with the flake's message, and a reproduce command), stable ones `passed every repetition`,
 * tests the build never runs `not a candidate`; a candidate of no expected test is listed as
 * `unexpected candidate: …`. Compare the two with toEqual: the diff names each shape that broke.
 */
export function shapeResults(candidates: readonly Candidate[], shapes: readonly ShapeExpectation[], out = '', problems: readonly string[] = []): { actual: Record<string, Record<string, string>>; expected: Record<string, Record<string, string>> } {
  const actual: Record<string, Record<string, string>> = {};
  const expected: Record<string, Record<string, string>> = {};
  const seen = new Set<Candidate>();
  for (const s of shapes) {
    const mine = candidates.filter((c) => shapeOf(c.module) === s.shape);
    const find = (test: string) => mine.find((c) => `${c.suite} ${c.name}` === test);
    const row: Record<string, string> = {};
    const want: Record<string, string> = {};
    for (const test of s.flaky) {
      const c = find(test);
      if (c) seen.add(c);
      want[test] = CAUGHT;
      row[test] = !c ? ABSENT : caught(c, out, problems);
    }
    for (const test of s.stable) {
      const c = find(test);
      if (c) seen.add(c);
      want[test] = PASSED;
      const passed = c ? c.recorded.filter((r) => r.status === 'success').length : 0;
      row[test] = !c ? ABSENT : c.outcome === 'passed' && c.expected > 0 && passed === c.expected ? PASSED : inWords(c, out, problems);
    }
    for (const test of s.never ?? []) {
      const c = find(test);
      if (c) seen.add(c);
      want[test] = ABSENT;
      row[test] = c ? `a candidate: ${inWords(c, out, problems)}` : ABSENT;
    }
    for (const c of mine) if (!seen.has(c)) row[`${c.suite} ${c.name}`] = `unexpected candidate: ${inWords(c, out, problems)}`;
    actual[s.shape] = row;
    expected[s.shape] = want;
  }
  const known = new Set(shapes.map((s) => s.shape));
  for (const c of candidates) {
    if (known.has(shapeOf(c.module))) continue;
    (actual[shapeOf(c.module)] ??= {})[`${c.suite} ${c.name}`] = `unexpected candidate: ${inWords(c, out, problems)}`;
  }
  return { actual, expected };
}

/** A gate run as the tests see it: the CLI's exit code and output, and its JSON report. */
export interface ShapesRun {
  code: number | undefined;
  out: string;
  err: string;
  report: { outcome: string; problems: string[]; candidates: Candidate[]; stressPass: object | null };
}

/**
 * Asserts an enforce run of the feature branch: per shape, the flaky tests caught and the stable
 * ones passed every repetition (shapeResults); exit 1, outcome failed, no problem of the gate's
 * own; and the fields of `stressPass` as given (e.g. the Gradle executor). One comparison, so the
 * diff shows every shape that broke at once; the gate's printed report follows it.
 */
export function expectShapes(run: ShapesRun, shapes: readonly ShapeExpectation[], stressPass: Record<string, unknown> = {}): void {
  const { actual, expected } = shapeResults(run.report.candidates, shapes, run.out, run.report.problems);
  const pass = run.report.stressPass as Record<string, unknown> | null;
  const seen = Object.fromEntries(Object.keys(stressPass).map((k) => [k, pass?.[k]]));
  try {
    expect({ shapes: actual, code: run.code, outcome: run.report.outcome, problems: run.report.problems, stressPass: seen }).toEqual({
      shapes: expected,
      code: 1,
      outcome: 'failed',
      problems: [],
      stressPass,
    });
    expect(run.out).toContain('expected 30 but was 27');
  } catch (e) {
    // The gate's own report under the diff: what a person reads in CI.
    // The report's table of candidates comes first: the start of stdout, then its end.
    const out = run.out.length > 16000 ? `${run.out.slice(0, 12000)}\n[…]\n${run.out.slice(-4000)}` : run.out;
    if (e instanceof Error) e.message += `\n\n--- the gate's stdout\n${out}\n--- its stderr (end)\n${run.err.slice(-3000)}`;
    throw e;
  }
}

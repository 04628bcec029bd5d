// The order probe's JVMs as both build adapters run them: each test of a sequence selected as the
// adapter selects a candidate (its StressTarget), the JVM its first step's (the candidate's), every
// sequence run by jvm/run-sequences.ts. A step the adapter cannot select, or that would need
// another JVM than its sequence's, does not run and says why.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { ProbeTest } from '../repetitions/order-probe-result.js';
import type { InOrderOptions, InOrderOutcome, StepResult } from '../repetitions/sequence-run.js';
import { launchJvm, type JvmLauncher } from './launch-jvm.js';
import { runSequences, type Sequence } from './run-sequences.js';
import type { StressTarget } from './stress-target.js';

/** How an adapter selects tests: its targets, and the tests it cannot select (with why); or why it cannot at all. */
export type ResolveTargets = (tests: readonly GateCandidate[]) => Promise<{ targets: StressTarget[]; unrunnable: { candidate: GateCandidate; why: string }[] } | { why: string }>;

/** Runs `sequences` in order, each in one fresh JVM. */
export async function runInOrder(
  sequences: readonly (readonly ProbeTest[])[],
  resolve: ResolveTargets,
  context: { runnerJar: string; outputDir: string; launch?: JvmLauncher },
  options: InOrderOptions,
): Promise<InOrderOutcome> {
  const distinct = new Map<string, ProbeTest>();
  for (const s of sequences) for (const t of s) distinct.set(t.testCaseId, t);
  // Each test as a candidate of one repetition: selected exactly as the stress pass selects one.
  const asCandidates: GateCandidate[] = [...distinct.values()].map((t) => ({ module: t.module, suite: t.suite, name: t.name, testCaseId: t.testCaseId, durationMs: t.durationMs, repetitions: 1, excluded: null, muted: false, source: t.source }));
  const resolved = await resolve(asCandidates);
  if ('why' in resolved) return { ok: false, why: resolved.why };
  const targetOf = new Map<string, StressTarget>();
  for (const t of resolved.targets) for (const m of t.members) targetOf.set(m.candidate.testCaseId, t);
  const cannot = new Map(resolved.unrunnable.map((u) => [u.candidate.testCaseId, u.why]));
  // A sequence whose first step (the candidate) cannot be selected runs nothing: `sequence` null.
  const planned: { sequence: Sequence | null; folder: string; kept: number[]; skipped: Map<number, string> }[] = sequences.map((steps, n) => {
    const first = targetOf.get(steps[0]?.testCaseId ?? '');
    const kept: number[] = [];
    const skipped = new Map<number, string>();
    steps.forEach((t, i) => {
      const target = targetOf.get(t.testCaseId);
      const selection = target?.members[0]?.selection;
      if (!target || !selection || !first) skipped.set(i, cannot.get(t.testCaseId) ?? 'it cannot be selected in a fresh JVM');
      else if (target.jvmKey !== first.jvmKey && JSON.stringify(target.jvm) !== JSON.stringify(first.jvm)) skipped.set(i, 'it runs in another test JVM than the candidate');
      else if (selection.kind !== first.members[0]!.selection.kind) skipped.set(i, 'it runs on another test framework than the candidate');
      else kept.push(i);
    });
    const c = steps[0]!;
    const folder = `${options.round}/${n + 1}-${`${c.suite.slice(c.suite.lastIndexOf('.') + 1)}.${c.name}`.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80)}`;
    const sequence = first ? { steps: kept.map((i) => targetOf.get(steps[i]!.testCaseId)!.members[0]!.selection), jvm: first.jvm, configurationParameters: first.configurationParameters, folder } : null;
    return { sequence, folder, kept, skipped };
  });
  if (options.clear !== undefined) await rm(path.join(context.outputDir, options.clear), { recursive: true, force: true });
  const runnable = planned.filter((p) => p.kept.length > 0);
  const outcome = await runSequences({
    sequences: runnable.map((p) => p.sequence!),
    runnerJar: context.runnerJar,
    outputDir: context.outputDir,
    concurrency: options.concurrency,
    deadlineMs: options.deadlineMs,
    launch: context.launch ?? launchJvm,
    signal: options.signal,
  });
  const runs = planned.map((p, n) => {
    const run = p.kept.length ? outcome.runs[runnable.indexOf(p)]! : { steps: [], dir: path.join(context.outputDir, p.folder) };
    const steps: StepResult[] = sequences[n]!.map((_, i) => {
      const why = p.skipped.get(i);
      return why !== undefined ? { status: 'not_run', why, killed: false } : run.steps[p.kept.indexOf(i)]!;
    });
    return { steps, dir: run.dir };
  });
  return { ok: true, ...outcome, runs };
}

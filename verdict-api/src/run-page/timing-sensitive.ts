// How the run page and the run report word a timing-sensitive test: one that failed while its
// repetitions ran side by side (several JVMs at once) and passed every repetition run again alone.
// It does not block unless the project's setting (stress.timingSensitiveBlocks) makes it. Pure.
import type { FlakyFinding, GateCandidate } from './run-page.js';

/** What the words need of a timing-sensitive test. */
export interface TimingSensitiveFacts {
  /** Side-by-side repetitions that failed, of how many. */
  failed: number;
  repetitions: number;
  /** Repetitions it passed run again alone. */
  passedAlone: number;
  /** It counted as failed (the project's setting) and is not muted. */
  blocking: boolean;
  muted: boolean;
}

/** The facts of a gate candidate, or null when it is not timing-sensitive. */
export function candidateTiming(c: GateCandidate): TimingSensitiveFacts | null {
  if (c.timingSensitive === null) return null;
  const passedAlone = c.repetitions.filter((r) => r.status === 'success').length;
  return { failed: c.timingSensitive.failures, repetitions: c.timingSensitive.repetitions, passedAlone, blocking: c.outcome === 'failed' && !c.muted, muted: c.muted };
}

/** The facts of a flaky-section finding, or null when it is not timing-sensitive. */
export function findingTiming(f: FlakyFinding): TimingSensitiveFacts | null {
  return f.timingSensitive ? { failed: f.failed, repetitions: f.repetitions, ...f.timingSensitive } : null;
}

/** "failed 2 of 10 side by side, passed 10 alone: timing-sensitive". */
export function timingSensitiveLine(t: TimingSensitiveFacts): string {
  return `failed ${t.failed} of ${t.repetitions} side by side, passed ${t.passedAlone} alone: timing-sensitive`;
}

/**
 * Whether it blocked: "not blocking (a project setting makes it block)" unless the setting made it
 * block ("blocked this merge request" in enforce, "would have blocked …" in report), or it is muted.
 */
export function timingSensitiveVerdict(t: TimingSensitiveFacts, mode: string | undefined): string {
  if (t.muted) return 'not blocking (muted)';
  if (!t.blocking) return 'not blocking (a project setting makes it block)';
  const setting = "the project's setting makes a timing-sensitive test block";
  return mode === 'enforce' ? `blocked this merge request (${setting})` : `would have blocked this merge request (${setting})`;
}
